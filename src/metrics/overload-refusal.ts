import type { ServerResponse } from 'node:http';
import { responseErrorExpected } from '../common/errors/response-error-code';

/** The route the search admission guards. */
export const SEARCH_ROUTE = '/v1/search';

/**
 * Whether a sent answer is a search refused under overload: a 5xx the service gave on purpose
 * (`ApiError.expected`, which the search admission's refusals are) on the search route, rather than
 * a failure. The one place that tells the two apart for metrics.
 */
export function isSearchOverloadRefusal(res: ServerResponse, route: string): boolean {
  return route === SEARCH_ROUTE && res.statusCode >= 500 && responseErrorExpected(res);
}
