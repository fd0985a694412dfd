import type { NextFunction, Request, Response } from 'express';
import { assignRequestId } from '../common/request-id/request-id';
import { EVERY_ANSWER_HEADERS, STRICT_TRANSPORT_SECURITY } from './security-headers';

/**
 * Express middleware, first in the chain, so every answer carries what it sets (errors, unknown
 * routes and `/health` included): the security headers and `Cache-Control: no-store` (routes with a
 * cache policy replace it), `Strict-Transport-Security` when the request arrived over HTTPS (on this
 * socket, or by a trusted proxy's `X-Forwarded-Proto`: `req.secure` follows the `trust proxy`
 * setting), and the request's id. One layer with a prebuilt list: the same headers as a separate
 * Helmet layer cost 5–7% of a cached lookup (bench/RESULTS.md, issue 31).
 */
export function answerHeaders(req: Request, res: Response, next: NextFunction): void {
  for (const [name, value] of EVERY_ANSWER_HEADERS) res.setHeader(name, value);
  if (req.secure) res.setHeader(...STRICT_TRANSPORT_SECURITY);
  assignRequestId(req, res);
  next();
}
