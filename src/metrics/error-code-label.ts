import type { ServerResponse } from 'node:http';
import { ERROR_CATALOGUE, type ErrorCode } from '../common/errors/error-catalogue';
import { responseErrorCode } from '../common/errors/response-error-code';

const CODES = Object.keys(ERROR_CATALOGUE) as ErrorCode[];

/**
 * The filter's recorded code, else the codes the status can stand for (401 and 429 have two,
 * joined by `|`).
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
