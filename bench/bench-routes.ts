/**
 * The cached routes the A/B and profile tools load: `lookup`, one hot title by id (the one
 * `bench/admission.ts`'s `full` asks), `search`, one repeated search (its `search-repeat`), and
 * `list`, the first page of movies (its `movies`). Each is answered from its cache from the second
 * ask on.
 */
import { Client } from 'pg';

export const CACHED_ROUTES = ['lookup', 'search', 'list'] as const;
export type CachedRoute = (typeof CACHED_ROUTES)[number];

export const REPEATED_SEARCH_PATH = '/v1/search?q=love';
export const LIST_PAGE_PATH = '/v1/movies';

export function cachedRoutes(list: string): CachedRoute[] {
  const routes = list.split(',');
  const unknown = routes.filter((route) => !(CACHED_ROUTES as readonly string[]).includes(route));
  if (unknown.length > 0)
    throw new Error(`Unknown routes: ${unknown.join(', ')} (known: ${CACHED_ROUTES.join(', ')})`);
  return routes as CachedRoute[];
}

/** Each route's request path on the catalog at `databaseUrl`. */
export async function cachedRoutePaths(databaseUrl: string): Promise<Record<CachedRoute, string>> {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const [{ imdb_id: imdbId }] = (
      await db.query<{ imdb_id: string }>(
        'SELECT imdb_id FROM titles ORDER BY id OFFSET LEAST(500000, (SELECT count(*) / 2 FROM titles)) LIMIT 1',
      )
    ).rows;
    return { lookup: `/v1/titles/${imdbId}`, search: REPEATED_SEARCH_PATH, list: LIST_PAGE_PATH };
  } finally {
    await db.end();
  }
}
