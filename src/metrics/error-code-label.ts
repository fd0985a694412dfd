import type { ServerResponse } from 'node:http';
import { ERROR_CATALOGUE, type ErrorCode } from '../common/errors/error-catalogue';
import { responseErrorCode } from '../common/errors/response-error-code';

const CODES = Object.keys(ERROR_CATALOGUE) as ErrorCode[];

/**
 * The `code` label of an error response: the code the exception filter recorded, else the codes
 * its status can stand for — one for 400, 403, 404 and 500 (a matched route's 404 is
 * TITLE_NOT_FOUND, an unmatched one ROUTE_NOT_FOUND); 401 and 429 each have two, joined by `|`
 * until the filter records the exact one.
 */
export function errorCodeLabel(res: ServerResponse, routeMatched: boolean): string {
  const recorded = responseErrorCode(res);
  if (recorded) return recorded;
  const candidates = CODES.filter(
    (code) =>
      ERROR_CATALOGUE[code].status === res.statusCode &&
      !(code === 'ROUTE_NOT_FOUND' && routeMatched) &&
      !(code === 'TITLE_NOT_FOUND' && !routeMatched),
  );
  return candidates.length > 0 ? candidates.join('|') : 'UNKNOWN';
}
