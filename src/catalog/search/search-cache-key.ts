import type { SearchFilters } from './search-filters';

/**
 * What a search answer depends on: the query's tokens (not its raw text: "The  Matrix!" and
 * "the matrix" are one query), the filters and the page.
 */
export function searchCacheKey(
  tokensKey: string,
  request: SearchFilters & { page: number; limit: number },
): string {
  return [tokensKey, request.type ?? '', request.year ?? '', request.page, request.limit].join('\u0000');
}
