import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import helmet from 'helmet';

type Middleware = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;

/**
 * The headers every answer carries (OWASP REST Security Cheat Sheet), set by Helmet with everything
 * else of Helmet's turned off: the API serves JSON only, so the browser-page headers (frame options,
 * cross-origin policies, DNS prefetch) say nothing. Helmet writes the policy as
 * `default-src 'none';frame-ancestors 'none'` (the CSP grammar's separator without the optional space).
 */
const fixedSecurityHeaders: Middleware = helmet({
  contentSecurityPolicy: {
    useDefaults: false,
    directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
  },
  referrerPolicy: { policy: 'no-referrer' },
  xContentTypeOptions: true,
  strictTransportSecurity: false,
  crossOriginEmbedderPolicy: false,
  crossOriginOpenerPolicy: false,
  crossOriginResourcePolicy: false,
  originAgentCluster: false,
  xDnsPrefetchControl: false,
  xDownloadOptions: false,
  xFrameOptions: false,
  xPermittedCrossDomainPolicies: false,
  // Express's own `x-powered-by` setting is off (app.setup.ts).
  xPoweredBy: false,
  xXssProtection: false,
});

/** One year, subdomains included (Helmet's default), sent only on answers to HTTPS requests. */
const strictTransportSecurity: Middleware = helmet.strictTransportSecurity();

/** The cache policy of an answer nothing else gives one (an authenticated `/v1` answer has its own). */
export const DEFAULT_CACHE_CONTROL = 'no-store';

/**
 * Express middleware, first in the chain: the fixed headers and `Cache-Control: no-store` on every
 * answer (routes with a cache policy replace it), and `Strict-Transport-Security` when the request
 * arrived over HTTPS, on this socket or by a trusted proxy's `X-Forwarded-Proto` (`req.secure`, which
 * follows the `trust proxy` setting). A browser only honours HSTS received over HTTPS anyway; it is
 * not sent over plain HTTP so the header never claims what the connection is not.
 */
export function securityHeaders(req: Request, res: Response, next: NextFunction): void {
  res.setHeader('Cache-Control', DEFAULT_CACHE_CONTROL);
  fixedSecurityHeaders(req, res, req.secure ? () => strictTransportSecurity(req, res, next) : next);
}

/**
 * The same headers as raw header lines, for answers written to the socket before Express sees a
 * request (`answerClientError`), over plain HTTP and over TLS. Read from the middleware itself, so
 * there is one list.
 */
export const SECURITY_HEADER_LINES = { http: headerLines(false), https: headerLines(true) } as const;

function headerLines(overTls: boolean): string {
  const headers: Array<[string, string]> = [['Cache-Control', DEFAULT_CACHE_CONTROL]];
  const recorder = {
    setHeader: (name: string, value: string) => headers.push([name, String(value)]),
    removeHeader: () => undefined,
  } as unknown as ServerResponse;
  const request = {} as IncomingMessage;
  fixedSecurityHeaders(request, recorder, () => undefined);
  if (overTls) strictTransportSecurity(request, recorder, () => undefined);
  return headers.map(([name, value]) => `${name}: ${value}\r\n`).join('');
}
