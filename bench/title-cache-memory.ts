/**
 * Heap held by a full title cache: fills a VersionedTitleCache with TITLE_CACHE_ENTRIES titles
 * read from a loaded catalog (BENCH_DATABASE_URL) and prints the heap used before and after, each
 * after a full garbage collection.
 *   node --expose-gc -r ts-node/register/transpile-only bench/title-cache-memory.ts
 */
import { Client } from 'pg';
import { titleSelectSql } from '../src/catalog/title-columns';
import { TITLE_CACHE_ENTRIES, VersionedTitleCache } from '../src/catalog/title-cache';
import { type TitleRow, serializeTitle } from '../src/catalog/title.serializer';

async function main(): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with node --expose-gc');
  const db = new Client({ connectionString: process.env.BENCH_DATABASE_URL });
  await db.connect();
  await db.query('SELECT setseed(0.42)');
  const { rows } = await db.query<TitleRow>(
    `SELECT ${titleSelectSql('t')} FROM titles t ORDER BY random() LIMIT ${TITLE_CACHE_ENTRIES}`,
  );
  await db.end();
  const cache = new VersionedTitleCache();
  gc();
  const before = process.memoryUsage().heapUsed;
  let json = 0;
  for (const row of rows) {
    const title = serializeTitle(structuredClone(row));
    json += JSON.stringify(title).length;
    // Kept on its second miss, as a lookup's title is.
    cache.store('v', row.imdb_id, title);
    cache.store('v', row.imdb_id, title);
  }
  gc();
  // The rows stay alive until here, so the difference is the cache's own copies.
  const after = process.memoryUsage().heapUsed;
  if (rows.length === 0) throw new Error('no titles');
  console.log(
    JSON.stringify({
      entries: cache.size,
      heapMb: Math.round((after - before) / 1e5) / 10,
      bytesPerEntry: Math.round((after - before) / cache.size),
      jsonBytesPerEntry: Math.round(json / cache.size),
    }),
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
