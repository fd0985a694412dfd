/**
 * Search latency per query class at full scale, one client, cold (first ask) and warm, against a
 * running server; optionally beside the naive query and the database's own share. Details:
 * bench/README.md ("Search benchmarks").
 *
 *   npx ts-node --transpile-only bench/search-latency.ts --url http://127.0.0.1:4101 --key mov_live_… \
 *     [--naive-url postgres://postgres@127.0.0.1:5432/search_base] \
 *     [--sql-url postgres://postgres@127.0.0.1:5432/catalog] [--rounds 3] [--client http|fetch] \
 *     [--warmup-requests 300]
 */
import { Agent, request } from 'node:http';
import { parseArgs } from 'node:util';
import { Client } from 'pg';
import { SearchDatabase } from '../src/database/search-database';
import { TitleSearchRepository } from '../src/catalog/search/title-search.repository';
import { searchQuery } from '../src/catalog/search/search-text';
import type { TitleType } from '../src/catalog/title';
import { median } from './median';

const { values } = parseArgs({
  options: {
    url: { type: 'string', default: 'http://127.0.0.1:4101' },
    key: { type: 'string' },
    'naive-url': { type: 'string' },
    'sql-url': { type: 'string' },
    rounds: { type: 'string', default: '3' },
    warm: { type: 'string', default: '5' },
    client: { type: 'string', default: 'http' },
    'warmup-requests': { type: 'string', default: '300' },
  },
});
if (!['http', 'fetch'].includes(values.client!)) throw new Error('--client is http or fetch');
const base = new URL(values.url!);
if (!['127.0.0.1', 'localhost', '[::1]'].includes(base.hostname)) throw new Error('loopback targets only');

interface Search {
  q: string;
  type?: string;
  year?: number;
  page?: number;
}

/** Five queries per class (tokens chosen on the seed-42 catalog by how many titles hold them). */
const CLASSES: Record<string, Search[]> = {
  rare: ['beikys', 'prukrock', 'shanouek', 'vouhoukriast', 'beikrist'].map((q) => ({ q })),
  mid: ['school', 'river', 'affair', 'africa', 'army'].map((q) => ({ q })),
  common: ['the', 'of', 'love', 'man', 'night'].map((q) => ({ q })),
  'two common': ['the man', 'of the', 'the night', 'love of', 'the last'].map((q) => ({ q })),
  'common + type': [
    { q: 'the', type: 'movie' },
    { q: 'of', type: 'tv_series' },
    { q: 'love', type: 'movie' },
    { q: 'man', type: 'tv_movie' },
    { q: 'night', type: 'tv_series' },
  ],
  'common + year': [
    { q: 'love', year: 2015 },
    { q: 'the', year: 2000 },
    { q: 'of', year: 2010 },
    { q: 'man', year: 1995 },
    { q: 'night', year: 2020 },
  ],
  'deep page': [
    { q: 'the', page: 500 },
    { q: 'the', page: 2000 },
    { q: 'of', page: 1000 },
    { q: 'love', page: 2000 },
    { q: 'man', page: 1500 },
  ],
  'short tokens': ['up', '9', 'it', 'a', 's'].map((q) => ({ q })),
  'three words': ['night of the', 'the last man', 'love of the', 'the man of', 'the king of'].map((q) => ({
    q,
  })),
  'rare + common': ['the beikys', 'school of', 'the army', 'love affair', 'man africa'].map((q) => ({ q })),
};

function path(search: Search): string {
  const params = new URLSearchParams({ q: search.q, limit: '20' });
  if (search.type) params.set('type', search.type);
  if (search.year) params.set('year', String(search.year));
  params.set('page', String(search.page ?? 1));
  return `/v1/search?${params}`;
}

/**
 * One GET on a kept-alive connection, resolved once the whole body arrived. The default node:http
 * client keeps samples to the server's time plus loopback (`--client fetch` adds ~1 ms of its own).
 */
const agent = new Agent({ keepAlive: true, maxSockets: 1 });
async function get(target: string): Promise<{ status: number; body: string }> {
  const headers = { Authorization: `Bearer ${values.key}` };
  if (values.client === 'fetch') {
    const res = await fetch(new URL(target, base), { headers });
    return { status: res.status, body: await res.text() };
  }
  return new Promise((resolve, reject) => {
    const req = request(new URL(target, base), { agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

async function timeHttp(search: Search): Promise<number> {
  const started = performance.now();
  const { status } = await get(path(search));
  if (status !== 200) throw new Error(`${path(search)} answered ${status}`);
  return performance.now() - started;
}

/** The query before the precomputed search lists: GIN match, count and ranked page as two statements. */
async function timeNaive(client: Client, search: Search): Promise<number> {
  const tokens = search.q.split(' ');
  const tsquery = [...new Set(tokens)].map((token) => `'${token}'`).join(' & ');
  const params: unknown[] = [tsquery];
  let where = 'search_vector @@ $1::tsquery';
  if (search.type) where += ` AND type = $${params.push(search.type)}`;
  if (search.year) where += ` AND year = $${params.push(search.year)}`;
  const n = params.length;
  const started = performance.now();
  await client.query(`SELECT count(*)::int FROM titles WHERE ${where}`, params);
  await client.query(
    `SELECT * FROM titles WHERE ${where}
     ORDER BY CASE WHEN search_title_key = $${n + 1} OR search_original_key = $${n + 1} THEN 2.0
                   ELSE $${n + 2}::float8 / greatest(length(search_vector), 1) END DESC, rating_votes DESC, id
     LIMIT 20 OFFSET $${n + 3}`,
    [...params, tokens.join(' '), new Set(tokens).size, ((search.page ?? 1) - 1) * 20],
  );
  return performance.now() - started;
}

/** The server's own query paths on one connection, no HTTP. */
class ClientSearchDatabase extends SearchDatabase {
  readonly concurrency = 1;

  constructor(private readonly client: Client) {
    super();
  }

  async query<Row>(sql: string, params: readonly unknown[] = []): Promise<Row[]> {
    return (await this.client.query(sql, params as unknown[])).rows as Row[];
  }
}

async function timeSql(repository: TitleSearchRepository, search: Search): Promise<number> {
  const started = performance.now();
  await repository.search(
    searchQuery(search.q),
    { type: search.type as TitleType | undefined, year: search.year },
    { limit: 20, offset: ((search.page ?? 1) - 1) * 20 },
  );
  return performance.now() - started;
}

/** GET /v1/titles/{id}: one index probe, the same HTTP stack (auth, limits, JSON of one title). */
async function timeLookup(imdbId: string): Promise<number> {
  const started = performance.now();
  const { status } = await get(`/v1/titles/${imdbId}`);
  if (status !== 200) throw new Error(`/v1/titles/${imdbId} answered ${status}`);
  return performance.now() - started;
}

/**
 * Other words and ids first, so "cold" means a query asked for the first time, not a process that
 * has not yet compiled its hot paths.
 */
const WARMUP_WORDS = ['world', 'story', 'day', 'house', 'blood', 'city', 'dead', 'girl', 'home', 'life'];
async function warmUp(requests: number): Promise<void> {
  for (let i = 0; i < requests; i++) {
    const word = WARMUP_WORDS[i % WARMUP_WORDS.length];
    const page = 1 + Math.floor(i / WARMUP_WORDS.length);
    const { status, body } = await get(`/v1/search?q=${word}&limit=5&page=${page}`);
    if (status !== 200) throw new Error(`warm-up search ${word} answered ${status}`);
    const ids = (JSON.parse(body) as { data: Array<{ imdb_id: string }> }).data.map((t) => t.imdb_id);
    for (const id of ids.slice(0, 2)) await get(`/v1/titles/${id}`);
  }
}

/** Five titles to look up, a different five per round (so the first ask is cold). */
async function lookupIds(round: number): Promise<string[]> {
  const { body } = await get(`/v1/search?q=the&limit=5&page=${round + 1}`);
  return (JSON.parse(body) as { data: Array<{ imdb_id: string }> }).data.map((title) => title.imdb_id);
}

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

const round1 = (n: number) => Math.round(n * 10) / 10;

async function measure<T>(
  run: (item: T) => Promise<number>,
  items: T[],
  warmTimes: number,
): Promise<{ cold: number[]; warm: number[] }> {
  const cold: number[] = [];
  const warm: number[] = [];
  for (const item of items) cold.push(await run(item));
  for (let i = 0; i < warmTimes; i++) for (const item of items) warm.push(await run(item));
  return { cold, warm };
}

async function main(): Promise<void> {
  const rounds = Number(values.rounds);
  const warmTimes = Number(values.warm);
  const naive = values['naive-url'] ? new Client({ connectionString: values['naive-url'] }) : null;
  await naive?.connect();
  const sqlClient = values['sql-url'] ? new Client({ connectionString: values['sql-url'] }) : null;
  await sqlClient?.connect();
  const repository = sqlClient ? new TitleSearchRepository(new ClientSearchDatabase(sqlClient)) : null;
  type Row = Record<string, number>;
  const results: Record<string, Row[]> = {};
  await warmUp(Number(values['warmup-requests']));
  for (let round = 0; round < rounds; round++) {
    const lookups = await measure(timeLookup, await lookupIds(round), warmTimes);
    const lookupRow: Row = {
      cold_p95: round1(percentile(lookups.cold, 95)),
      warm_p50: round1(percentile(lookups.warm, 50)),
      warm_p95: round1(percentile(lookups.warm, 95)),
    };
    (results['lookup (HTTP floor)'] ??= []).push(lookupRow);
    console.log(JSON.stringify({ round, class: 'lookup (HTTP floor)', ...lookupRow }));
    for (const [name, searches] of Object.entries(CLASSES)) {
      // Cold differs per round: a page number no earlier round asked keeps the query "first time".
      const variant = round === 0 ? searches : searches.map((s) => ({ ...s, page: (s.page ?? 1) + round }));
      const ours = await measure(timeHttp, variant, warmTimes);
      const row: Row = {
        cold_p95: round1(percentile(ours.cold, 95)),
        warm_p50: round1(percentile(ours.warm, 50)),
        warm_p95: round1(percentile(ours.warm, 95)),
      };
      if (repository) {
        // After the HTTP run: the server has asked each query already, so these are warm for the
        // database; the first (cold) ask is reported apart anyway.
        const sql = await measure((s) => timeSql(repository, s), variant, warmTimes);
        row.sql_cold_p95 = round1(percentile(sql.cold, 95));
        row.sql_warm_p50 = round1(percentile(sql.warm, 50));
        row.sql_warm_p95 = round1(percentile(sql.warm, 95));
      }
      if (naive) {
        const theirs = await measure((s) => timeNaive(naive, s), variant, 1);
        row.naive_cold_p95 = round1(percentile(theirs.cold, 95));
        row.naive_warm_p95 = round1(percentile(theirs.warm, 95));
        row.ratio_warm_p95 = round1(row.naive_warm_p95 / row.warm_p95);
      }
      (results[name] ??= []).push(row);
      console.log(JSON.stringify({ round, class: name, ...row }));
    }
  }
  await naive?.end();
  await sqlClient?.end();
  agent.destroy();
  console.log(
    '\n| class | cold p95 ms | warm p50 ms | warm p95 ms | SQL warm p50 ms | SQL warm p95 ms |' +
      ' naive warm p95 ms | naive ÷ ours (warm p95) |',
  );
  console.log('|---|---|---|---|---|---|---|---|');
  for (const [name, rows] of Object.entries(results)) {
    const m = (key: string) => (rows[0][key] === undefined ? '–' : String(median(rows.map((r) => r[key]))));
    console.log(
      `| ${name} | ${m('cold_p95')} | ${m('warm_p50')} | ${m('warm_p95')} | ${m('sql_warm_p50')} |` +
        ` ${m('sql_warm_p95')} | ${m('naive_warm_p95')} | ${m('ratio_warm_p95')} |`,
    );
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
