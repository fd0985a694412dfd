import { createHash } from 'node:crypto';
import { NotFoundException } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';

/** The files the page loads; any other swagger-ui-dist file is an unknown route. */
const PAGE_ASSETS: ReadonlySet<string> = new Set([
  '/swagger-ui.css',
  '/swagger-ui-bundle.js',
  '/swagger-ui-standalone-preset.js',
  '/favicon-32x32.png',
  '/favicon-16x16.png',
]);
const PAGE_SCRIPT = '/swagger-ui-init.js';

/** The assets change only with the package: a browser keeps them and asks whether they changed. */
const ASSET_CACHE_CONTROL = 'no-cache';

/**
 * Mounted before Swagger UI: lets through the page and its files, answers anything else 404, and
 * gives only the page its Content-Security-Policy.
 */
export function pageGate(req: Request, res: Response, next: NextFunction): void {
  if (req.method !== 'GET' && req.method !== 'HEAD') return next();
  if (req.path === '/') {
    sendWithPagePolicy(res);
    return next();
  }
  if (PAGE_ASSETS.has(req.path)) {
    res.setHeader('Cache-Control', ASSET_CACHE_CONTROL);
    return next();
  }
  if (req.path === PAGE_SCRIPT) return next();
  next(new NotFoundException());
}

const policies = new Map<string, string>();

/**
 * Sets the page's policy when its HTML is sent: the policy allows the inline styles of that HTML by
 * their hashes, so it is computed from the HTML @nestjs/swagger writes (once per text).
 */
function sendWithPagePolicy(res: Response): void {
  const send = res.send.bind(res);
  res.send = (body?: unknown) => {
    if (typeof body === 'string') {
      let policy = policies.get(body);
      if (policy === undefined) policies.set(body, (policy = pagePolicy(body)));
      res.setHeader('Content-Security-Policy', policy);
    }
    return send(body);
  };
}

/**
 * Only what the page needs: same-origin assets, `data:` images, inline styles by hash. No
 * connections: the document is in the init script.
 */
export function pagePolicy(html: string): string {
  const elements = [...html.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/gi)].map((match) => match[1]);
  const attributes = [...html.matchAll(/\sstyle\s*=\s*"([^"]*)"/gi)].map((match) => match[1]);
  const styles = [
    "'self'",
    ...elements.map(hashSource),
    ...(attributes.length > 0 ? ["'unsafe-hashes'", ...attributes.map(hashSource)] : []),
  ];
  return [
    "default-src 'none'",
    "script-src 'self'",
    `style-src ${[...new Set(styles)].join(' ')}`,
    "img-src 'self' data:",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join(';');
}

function hashSource(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}
