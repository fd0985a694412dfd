import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setAnswerHeader } from '../answer-head/answer-head';

export const REQUEST_ID_HEADER = 'X-Request-Id';
export const ACCEPTED_REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;
/** Where a request keeps its id: a symbol, so no other code or client input can set it. */
const REQUEST_ID = Symbol('requestId');
type WithRequestId = IncomingMessage & { [REQUEST_ID]?: string };

/**
 * Gives the request its id, once, as the first step of its answer (`answerHeaders`, the health
 * server): the client's X-Request-Id when it is 1–128 of [A-Za-z0-9._-], otherwise a new UUID.
 */
export function assignRequestId(req: WithRequestId, res: ServerResponse): string {
  const supplied = req.headers['x-request-id'];
  const id = typeof supplied === 'string' && ACCEPTED_REQUEST_ID.test(supplied) ? supplied : randomUUID();
  req[REQUEST_ID] = id;
  setAnswerHeader(res, REQUEST_ID_HEADER, id);
  return id;
}

/** The id `assignRequestId` gave the request. */
export function requestIdOf(req: WithRequestId): string {
  const id = req[REQUEST_ID];
  if (id === undefined) throw new Error('The request has no id: answerHeaders did not run first');
  return id;
}
