/**
 * Heap held by full catalog caches against the bytes they count: fills CatalogCaches (default
 * CACHE_BUDGET_MB, or the variable) with titles and 20-title pages read from a loaded catalog
 * (BENCH_DATABASE_URL) until each cache evicts, one cache at a time (each may fill the whole shared
 * budget), and prints, per cache, its entries, the bytes it counts and the memory it holds (the heap,
 * and the byte arrays outside it that answers are kept in), each reading after a full garbage collection.
 *   node --expose-gc -r ts-node/register/transpile-only bench/cache-memory.ts
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import { CatalogCaches, listCacheKey } from '../src/catalog/catalog-caches';
import { titleSelectSql } from '../src/catalog/title-columns';
import type { TitleRow } from '../src/catalog/title-columns';
import { serializeTitleJson } from '../src/catalog/title.serializer';
import { loadConfig } from '../src/config/app-config';
import { EnvelopeBytes, pageMeta } from '../src/common/envelope';

const PAGE_SIZE = 20;

async function main(): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with node --expose-gc');
  const { cacheBudgetBytes } = loadConfig();
  const db = new Client({ connectionString: process.env.BENCH_DATABASE_URL });
  await db.connect();
  await db.query('SELECT setseed(0.42)');
  // Enough titles, and pages of them, to overfill the whole budget (a title's text is ~0.7–1.3 KB).
  const wanted = Math.ceil(cacheBudgetBytes / 500);
  const { rows } = await db.query<TitleRow>(
    `SELECT ${titleSelectSql('t')} FROM titles t ORDER BY random() LIMIT ${wanted}`,
  );
  await db.end();
  if (rows.length === 0) throw new Error('no titles');
  // A fresh set of caches for each phase, so one cache's entries are not evicted by the next's.
  let caches = new CatalogCaches({ cacheBudgetBytes });
  const texts = rows.map(serializeTitleJson);
  const heap = async () => {
    // V8 frees the byte arrays of a dropped cache on a background thread after the collection that
    // found them unreachable: wait for it, and collect again.
    gc();
    await sleep(200);
    gc();
    const { heapUsed, arrayBuffers } = process.memoryUsage();
    return heapUsed + arrayBuffers;
  };
  const report: Record<string, unknown> = {
    budgetMb: cacheBudgetBytes / 1024 / 1024,
    titlesRead: rows.length,
  };

  let before = await heap();
  for (let i = 0; i < rows.length; i++) {
    // Kept on the second miss, as a lookup's title is; a copy, as each lookup serializes its own.
    caches.titles.store('v', rows[i].imdb_id, EnvelopeBytes.item(serializeTitleJson(rows[i])));
    caches.titles.store('v', rows[i].imdb_id, EnvelopeBytes.item(serializeTitleJson(rows[i])));
  }
  report.titles = measure(caches.titles, (await heap()) - before);

  const pages = Math.floor(texts.length / PAGE_SIZE);
  const page = (i: number) =>
    EnvelopeBytes.page(
      texts.slice(i * PAGE_SIZE, (i + 1) * PAGE_SIZE),
      pageMeta({ page: i + 1, perPage: PAGE_SIZE, total: rows.length }),
    );
  caches = new CatalogCaches({ cacheBudgetBytes });
  before = await heap();
  for (let i = 0; i < pages; i++) caches.searches.store('v', `q${i}`, page(i));
  report.searches = measure(caches.searches, (await heap()) - before);
  caches = new CatalogCaches({ cacheBudgetBytes });
  before = await heap();
  for (let i = 0; i < pages; i++) {
    const key = listCacheKey('movies', i + 1, PAGE_SIZE);
    caches.lists.store('v', key, page(i));
    caches.lists.store('v', key, page(i));
  }
  report.lists = measure(caches.lists, (await heap()) - before);
  console.log(JSON.stringify(report));
}

function measure(cache: { size: number; bytes: number; maxBytes: number }, heapBytes: number) {
  return {
    entries: cache.size,
    countedMb: Math.round(cache.bytes / 1e5) / 10,
    budgetMb: Math.round(cache.maxBytes / 1e5) / 10,
    heapMb: Math.round(heapBytes / 1e5) / 10,
    heapOverCounted: Math.round((heapBytes / cache.bytes) * 100) / 100,
  };
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
