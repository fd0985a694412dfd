/**
 * CPU cost of recording one request in the Prometheus series (what the metrics middleware does on
 * every response), and of one scrape. In-process, so less sensitive to a busy machine than an HTTP run.
 *   npx ts-node --transpile-only bench/metrics-cost.ts
 */
import { Registry } from 'prom-client';
import { HttpMetrics } from '../src/metrics/http-metrics';

const ROUTES = ['/health', '/v1/search', '/v1/titles/{imdb_id}', '/v1/movies', '/v1/series', 'unmatched'];
const STATUSES = [200, 200, 200, 200, 400, 401, 404, 429];

async function main(): Promise<void> {
  const registry = new Registry();
  const metrics = new HttpMetrics(registry);
  const record = (i: number) => {
    const status = STATUSES[i % STATUSES.length];
    metrics.observe({
      method: 'GET',
      route: ROUTES[i % ROUTES.length],
      status,
      seconds: (i % 1000) / 10_000,
      errorCode: status >= 400 ? 'VALIDATION_ERROR' : undefined,
    });
  };
  for (let i = 0; i < 200_000; i++) record(i); // warm-up
  for (let run = 1; run <= 3; run++) {
    const n = 1_000_000;
    const started = process.hrtime.bigint();
    for (let i = 0; i < n; i++) record(i);
    const perCall = Number(process.hrtime.bigint() - started) / n / 1000;
    const scrapeStarted = process.hrtime.bigint();
    const text = await registry.metrics();
    const scrapeMs = Number(process.hrtime.bigint() - scrapeStarted) / 1e6;
    console.log(
      `run ${run}: ${perCall.toFixed(2)} µs per recorded request; scrape ${scrapeMs.toFixed(1)} ms, ${text.length} bytes`,
    );
  }
}

void main();
