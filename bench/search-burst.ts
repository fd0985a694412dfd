/**
 * A burst of clients paging one search, as a web page fetching result pages for a handful of users
 * does: every answer should be 200 and every walk the same order. Options: bench/README.md.
 *
 *   npx ts-node --transpile-only bench/search-burst.ts --url http://127.0.0.1:4101 --key mov_live_… \
 *     --q love [--walkers 64] [--max-limit 20] [--max-pages 50] [--rounds 1]
 */
import { Agent, get } from 'node:http';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    url: { type: 'string', default: 'http://127.0.0.1:4101' },
    key: { type: 'string' },
    q: { type: 'string', default: 'love' },
    walkers: { type: 'string', default: '64' },
    'max-limit': { type: 'string', default: '20' },
    'max-pages': { type: 'string', default: '50' },
    rounds: { type: 'string', default: '1' },
  },
});
const base = new URL(values.url!);
if (!['127.0.0.1', 'localhost', '[::1]'].includes(base.hostname)) throw new Error('loopback targets only');
const agent = new Agent({ keepAlive: true });
const headers = { authorization: `Bearer ${values.key}` };

interface Page {
  data: Array<{ imdb_id: string }>;
  meta: { page: number; total_pages: number };
}

async function walk(limit: number, statuses: Map<number, number>, ms: number[]): Promise<string[]> {
  const seen: string[] = [];
  for (let page = 1; page <= Number(values['max-pages']); page++) {
    const started = performance.now();
    const { status, body } = await send(
      `/v1/search?q=${encodeURIComponent(values.q!)}&limit=${limit}&page=${page}`,
    );
    ms.push(performance.now() - started);
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
    if (status !== 200) return seen;
    const answer = JSON.parse(body) as Page;
    seen.push(...answer.data.map((title) => title.imdb_id));
    if (answer.meta.page >= answer.meta.total_pages) break;
  }
  return seen;
}

async function main(): Promise<void> {
  const walkers = Number(values.walkers);
  const maxLimit = Number(values['max-limit']);
  for (let round = 1; round <= Number(values.rounds); round++) {
    const statuses = new Map<number, number>();
    const ms: number[] = [];
    const started = performance.now();
    const walks = await Promise.all(
      Array.from({ length: walkers }, (_, i) => walk(1 + (i % maxLimit), statuses, ms)),
    );
    const seconds = (performance.now() - started) / 1000;
    // Walks of different page sizes cover different lengths under --max-pages: compare prefixes.
    const shortest = Math.min(...walks.map((seen) => seen.length));
    const consistent = walks.every(
      (seen) => seen.slice(0, shortest).join() === walks[0].slice(0, shortest).join(),
    );
    ms.sort((a, b) => a - b);
    const at = (q: number) => Math.round(ms[Math.min(ms.length - 1, Math.floor(q * ms.length))]);
    console.log(
      JSON.stringify({
        round,
        q: values.q,
        walkers,
        requests: ms.length,
        statuses: Object.fromEntries(statuses),
        seconds: Number(seconds.toFixed(1)),
        p50_ms: at(0.5),
        p95_ms: at(0.95),
        max_ms: at(1),
        walks_consistent: consistent,
      }),
    );
  }
  agent.destroy();
}

function send(path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    get(new URL(path, base), { agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
      res.on('error', reject);
    }).on('error', reject);
  });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
