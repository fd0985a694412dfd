import type { Response } from 'express';
import type { RequestMeta } from '../envelope';
import { requestIdOf } from '../request-id/request-id';

/** Responses whose handler's return value is the `data` of an envelope the service writes. */
const dataAnswers = new WeakSet<Response>();

/** Marks the answer of a route that does not write its own envelope (`RouteDefaultsGuard`). */
export function answerAsData(res: Response): void {
  dataAnswers.add(res);
}

/**
 * What the HTTP adapter sends for `body`: as it is, or, for a marked answer, the envelope with
 * `body` as its data (an array as it is, nothing as none, any other value as the one item).
 */
export function answerBody(res: Response, body: unknown): unknown {
  if (!dataAnswers.has(res)) return body;
  const data = Array.isArray(body) ? body : body === undefined || body === null ? [] : [body];
  const meta: RequestMeta = { request_id: requestIdOf(res.req) };
  return { data, meta };
}
