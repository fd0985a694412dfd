/**
 * What one search costs the server's process, in cached title lookups: the basis of
 * `SEARCH_COST_IN_REQUESTS` (src/catalog/search/search-share.ts). Against a running server over a
 * PostgreSQL catalog (loopback only), its CPU time read from /proc/<pid>/stat around each phase:
 *   1. --lookups clients look titles up (the title cache answers once warm): CPU ms per lookup;
 *   2. --searchers clients search distinct (word, page) pairs, each asked once, so every search reads
 *      the database (few enough clients that none is refused): CPU ms per search;
 * alternating, --rounds times. Prints per round both costs and their ratio, then the median ratio.
 * The process's CPU time includes V8's garbage-collection threads and libuv's, as a core's share.
 *
 *   npx ts-node --transpile-only bench/search-cost.ts --url http://127.0.0.1:4101 --key mov_live_… \
 *     --database-url postgres://postgres@127.0.0.1:5432/bench_1m3 --pid <server pid> \
 *     [--seconds 8] [--rounds 3] [--lookups 32] [--searchers 4]
 */
import { readFileSync } from 'node:fs';
import { Agent, get } from 'node:http';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { Client } from 'pg';
import { sampleSearchWords, sampleTitleIds } from './catalog-sample';

const { values } = parseArgs({
  options: {
    url: { type: 'string', default: 'http://127.0.0.1:4101' },
    key: { type: 'string' },
    'database-url': { type: 'string' },
    pid: { type: 'string' },
    seconds: { type: 'string', default: '8' },
    rounds: { type: 'string', default: '3' },
    lookups: { type: 'string', default: '32' },
    searchers: { type: 'string', default: '4' },
  },
});
const base = new URL(values.url!);
if (!['127.0.0.1', 'localhost', '[::1]'].includes(base.hostname)) throw new Error('loopback targets only');
const seconds = Number(values.seconds);
const agent = new Agent({ keepAlive: true });
const headers = { authorization: `Bearer ${values.key}` };
/** Clock ticks a second of /proc/<pid>/stat (`getconf CLK_TCK` on Linux). */
const TICKS_PER_SECOND = 100;

/** The server's CPU time so far (user + system), in ms. */
function cpuMs(): number {
  const stat = readFileSync(`/proc/${values.pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

/** Closed-loop clients for `seconds`; the 200s answered and the server's CPU ms spent. */
async function phase(clients: number, nextPath: () => string) {
  const until = performance.now() + seconds * 1000;
  const statuses: Record<number, number> = {};
  const before = cpuMs();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < until) {
        const status = await send(nextPath());
        statuses[status] = (statuses[status] ?? 0) + 1;
      }
    }),
  );
  const cpu = cpuMs() - before;
  const ok = statuses[200] ?? 0;
  return { ok, statuses, cpu_ms: Math.round(cpu), cpu_ms_each: Number((cpu / ok).toFixed(4)) };
}

async function main(): Promise<void> {
  const db = new Client({ connectionString: values['database-url'] });
  await db.connect();
  const ids = await sampleTitleIds(db);
  const words = await sampleSearchWords(db, 20, 50_000);
  await db.end();
  // Every (word, page) pair once, in a random order: each search misses the search cache.
  const searches = shuffle(words.flatMap((word) => [1, 2, 3].map((page) => ({ word, page }))));
  let next = 0;
  const search = () => {
    const { word, page } = searches[next++ % searches.length];
    return `/v1/search?q=${encodeURIComponent(word)}&page=${page}`;
  };
  const lookup = () => `/v1/titles/${ids[Math.floor(Math.random() * ids.length)]}`;
  await phase(Number(values.lookups), lookup); // warms the title cache

  const ratios: number[] = [];
  for (let round = 0; round < Number(values.rounds); round++) {
    const lookups = await phase(Number(values.lookups), lookup);
    const searched = await phase(Number(values.searchers), search);
    const ratio = Number((searched.cpu_ms_each / lookups.cpu_ms_each).toFixed(1));
    ratios.push(ratio);
    console.log(JSON.stringify({ round, lookups, searches: searched, search_per_lookup: ratio }));
  }
  const sorted = [...ratios].sort((a, b) => a - b);
  console.log(
    JSON.stringify({
      pairs_used: next,
      pairs: searches.length,
      search_per_lookup_median: sorted[Math.floor(sorted.length / 2)],
      ratios,
    }),
  );
  agent.destroy();
}

function send(path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    get(new URL(path, base), { agent, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', reject);
    }).on('error', reject);
  });
}

function shuffle<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j], items[i]];
  }
  return items;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
