import type { SearchFilters } from './title-search.repository';

/**
 * Search answers the catalog service keeps (every answer, on its first ask: searches repeat, and
 * the second ask of a query is the one to make fast). A page holds at most 20 titles of ~1.3 KB of
 * heap each (`bench/title-cache-memory.ts`), so a full cache holds at most ~26 MB.
 */
export const SEARCH_CACHE_ENTRIES = 1_000;

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
