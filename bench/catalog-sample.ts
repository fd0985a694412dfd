/**
 * Random samples of a loaded catalog for the load generators: title ids to look up, and single
 * words of the search index (every one a word some title holds) to search for.
 */
import type { Client } from 'pg';

/** Up to 5,000 imdb_ids from about 1% of the titles' pages. */
export async function sampleTitleIds(db: Client): Promise<string[]> {
  const { rows } = await db.query<{ imdb_id: string }>(
    'SELECT imdb_id FROM titles TABLESAMPLE SYSTEM (1) LIMIT 5000',
  );
  return rows.map((row) => row.imdb_id);
}

/** Up to `limit` one-word search keys (any year) from about `percent`% of the index's pages. */
export async function sampleSearchWords(db: Client, percent: number, limit: number): Promise<string[]> {
  const { rows } = await db.query<{ key: string }>(
    `SELECT key FROM search_lists TABLESAMPLE SYSTEM (${Number(percent)})
      WHERE year = 0 AND position(' ' in key) = 0 LIMIT ${Number(limit)}`,
  );
  return rows.map((row) => row.key);
}
