/**
 * A small client of the catalog API on the types generated from its OpenAPI document
 * (catalog-api.d.ts): a fetch wrapper that sends the bearer key, and a walk over every page of a list
 * while `meta.page < meta.total_pages`. Run it on a server: the key is a server-side secret.
 *
 *   CATALOG_API_URL=https://catalog.example.com CATALOG_API_KEY=mov_live_… node example.js [/v1/movies] [limit]
 */
import type { components, paths } from './catalog-api';

export type Title = components['schemas']['Title'];
export type ErrorCode = components['schemas']['ErrorCode'];
type ErrorEnvelope = components['schemas']['ErrorEnvelope'];
type Json<Path extends keyof paths> = paths[Path]['get']['responses'][200]['content']['application/json'];
export type ListPath = '/v1/movies' | '/v1/series';
export type ListQuery = NonNullable<paths['/v1/movies']['get']['parameters']['query']>;
export type SearchQuery = NonNullable<paths['/v1/search']['get']['parameters']['query']>;

/** A refusal in the API's error envelope, with its code (branch on it, not on the message). */
export class CatalogApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly requestId: string,
    /** Seconds to wait before asking again (429, and a search refused under overload). */
    readonly retryAfterSeconds: number | null,
  ) {
    super(`${status} ${code}: ${message}`);
  }
}

export function catalogClient(baseUrl: string, apiKey: string) {
  async function get<T>(path: string, query: Record<string, string | number | undefined> = {}): Promise<T> {
    const url = new URL(path, baseUrl);
    for (const [name, value] of Object.entries(query)) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    const res = await fetch(url, { headers: { Authorization: `Bearer ${apiKey}` } });
    if (res.ok) return (await res.json()) as T;
    const { error } = (await res.json()) as ErrorEnvelope;
    const retryAfter = res.headers.get('Retry-After');
    throw new CatalogApiError(
      res.status,
      error.code,
      error.message,
      error.request_id,
      retryAfter === null ? null : Number(retryAfter),
    );
  }

  const list = (path: ListPath, query: ListQuery = {}) => get<Json<'/v1/movies'>>(path, query);

  return {
    search: (query: SearchQuery) => get<Json<'/v1/search'>>('/v1/search', query),
    title: (imdbId: string) => get<Json<'/v1/titles/{imdb_id}'>>(`/v1/titles/${encodeURIComponent(imdbId)}`),
    list,
    /** Every title of a list, a page at a time (`limit` titles a request). */
    async *all(path: ListPath, limit: ListQuery['limit'] = 20): AsyncGenerator<Title> {
      for (let page = 1; ; page++) {
        const body = await list(path, { page, limit });
        yield* body.data;
        if (!(body.meta.page < body.meta.total_pages)) return;
      }
    },
  };
}

/** Walks a list and prints what it read: one JSON line. */
async function main(): Promise<void> {
  const { CATALOG_API_URL: baseUrl, CATALOG_API_KEY: apiKey } = process.env;
  if (!baseUrl || !apiKey) throw new Error('set CATALOG_API_URL and CATALOG_API_KEY');
  const [path = '/v1/movies', limit = '20'] = process.argv.slice(2);
  if (path !== '/v1/movies' && path !== '/v1/series') throw new Error('the list is /v1/movies or /v1/series');
  const client = catalogClient(baseUrl, apiKey);
  const ids: string[] = [];
  for await (const title of client.all(path, Number(limit))) ids.push(title.imdb_id);
  const first = ids.length > 0 ? await client.title(ids[0]) : null;
  console.log(JSON.stringify({ path, titles: ids.length, ids, first: first?.data[0].title ?? null }));
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
