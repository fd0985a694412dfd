import type { NextFunction, Request, Response } from 'express';

/**
 * Express answers a bad path escape (`/v1/titles/%ZZ`) 400 before auth and limits; escaping the `%`
 * of undecodable segments keeps the contract's order (404, or 400 from validation after the guards).
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
