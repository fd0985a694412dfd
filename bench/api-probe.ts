/**
 * Keeps asking the API while something else runs (an ingest), and reports how it answered:
 *   npx ts-node --transpile-only bench/api-probe.ts --url http://127.0.0.1:3000 --key mov_live_… --seconds 120
 * Stops after --seconds or when the file named by --stop-file exists. Loopback targets only.
 */
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    url: { type: 'string', default: 'http://127.0.0.1:3000' },
    key: { type: 'string' },
    seconds: { type: 'string', default: '120' },
    'stop-file': { type: 'string' },
    concurrency: { type: 'string', default: '4' },
  },
});
const base = new URL(values.url!);
if (!['127.0.0.1', 'localhost', '[::1]'].includes(base.hostname)) throw new Error('loopback targets only');
const deadline = Date.now() + Number(values.seconds) * 1000;
const paths = ['/v1/movies?limit=20', '/v1/search?q=the+last&limit=20', '/v1/series?page=3', '/health'];
const latencies: number[] = [];
const statuses = new Map<string, number>();
const totals = new Set<number>();

async function worker(offset: number): Promise<void> {
  for (
    let i = offset;
    Date.now() < deadline && !(values['stop-file'] && existsSync(values['stop-file']));
    i++
  ) {
    const path = paths[i % paths.length];
    const started = performance.now();
    try {
      const res = await fetch(new URL(path, base), { headers: { Authorization: `Bearer ${values.key}` } });
      const body = (await res.json()) as { meta?: { total_results?: number } };
      if (path.startsWith('/v1/movies') && body.meta?.total_results !== undefined)
        totals.add(body.meta.total_results);
      statuses.set(String(res.status), (statuses.get(String(res.status)) ?? 0) + 1);
    } catch (error) {
      statuses.set(
        `error ${(error as Error).message}`,
        (statuses.get(`error ${(error as Error).message}`) ?? 0) + 1,
      );
    }
    latencies.push(performance.now() - started);
  }
}

void (async () => {
  await Promise.all(Array.from({ length: Number(values.concurrency) }, (_, i) => worker(i)));
  latencies.sort((a, b) => a - b);
  const pct = (p: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]?.toFixed(1);
  console.log(
    JSON.stringify({
      requests: latencies.length,
      statuses: Object.fromEntries(statuses),
      p50_ms: pct(50),
      p99_ms: pct(99),
      max_ms: latencies.at(-1)?.toFixed(1),
      movie_totals_seen: [...totals],
    }),
  );
})();
