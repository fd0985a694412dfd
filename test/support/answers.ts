import type { HttpAnswer } from './server-process';

/**
 * Why an answer breaks the contract for a request that may only succeed or fail on the server's
 * side: 200 with a JSON body, or 500 INTERNAL_ERROR in the error envelope with the request id of
 * the X-Request-Id header. Null when it is one of those.
 */
export function notOkOrInternalError(answer: HttpAnswer): string | null {
  const requestId = answer.headers['x-request-id'];
  if (typeof requestId !== 'string' || requestId === '') return `${answer.status} without X-Request-Id`;
  let body: { error?: { code?: string; request_id?: string } };
  try {
    body = JSON.parse(answer.body);
  } catch {
    return `${answer.status} with a body that is not JSON: ${answer.body.slice(0, 80)}`;
  }
  if (answer.status === 200) return null;
  if (answer.status === 500 && body.error?.code === 'INTERNAL_ERROR' && body.error.request_id === requestId) {
    return null;
  }
  return `${answer.status} ${answer.body.slice(0, 120)}`;
}
