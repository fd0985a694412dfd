import type { NextFunction, Request, Response } from 'express';

/**
 * The contract's order is route, authentication, limits, then validation; Express decodes path
 * parameters while it routes and answers a bad percent-escape (`/v1/titles/%ZZ`, `/v1%E0%A4`) with
 * 400 before any of them. This runs first and escapes the `%` of every path segment that does not
 * decode, so routing sees the segment's literal text: an unknown path stays 404, and a parameter
 * arrives as text containing `%` that validation refuses (400, after the guards). Segments that do
 * decode, and the query string (parsed strictly by `parseRawQuery`), are left as they are.
 */
export function escapeUndecodablePathSegments(req: Request, _res: Response, next: NextFunction): void {
  req.url = escapeUndecodableSegments(req.url);
  next();
}

export function escapeUndecodableSegments(url: string): string {
  const queryStart = url.indexOf('?');
  const path = queryStart === -1 ? url : url.slice(0, queryStart);
  if (!path.includes('%')) return url;
  const escaped = path
    .split('/')
    .map((segment) => (decodes(segment) ? segment : segment.replace(/%/g, '%25')))
    .join('/');
  return queryStart === -1 ? escaped : escaped + url.slice(queryStart);
}

function decodes(segment: string): boolean {
  try {
    decodeURIComponent(segment);
    return true;
  } catch {
    return false;
  }
}
