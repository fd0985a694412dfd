/**
 * Overload: title lookups alone and beside a flood of clients searching distinct words, and what
 * health probes see meanwhile. Phases, options and output: bench/README.md ("Search benchmarks").
 *
 *   npx ts-node --transpile-only bench/search-overload.ts --url http://127.0.0.1:4101 --key mov_live_… \
 *     --database-url postgres://postgres@127.0.0.1:5432/bench_1m3 [--seconds 10] [--cycles 1] [--searchers 256] \
 *     [--lookups 32] [--metrics-url http://127.0.0.1:9464/metrics] [--warmup 0] \
 *     [--health-url http://127.0.0.1:8081/health] [--probe-every 500]
 * --warmup N asks lookups for N seconds first, unreported: a fresh server's cold title cache would
 * make the "alone" phase measure PostgreSQL instead of the process.
 */
import { spawn } from 'node:child_process';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { Agent, get } from 'node:http';
import { Client } from 'pg';
import { sampleSearchWords, sampleTitleIds } from './catalog-sample';

const { values } = parseArgs({
  options: {
    url: { type: 'string', default: 'http://127.0.0.1:4101' },
    key: { type: 'string' },
    'database-url': { type: 'string' },
    seconds: { type: 'string', default: '10' },
    cycles: { type: 'string', default: '1' },
    searchers: { type: 'string', default: '256' },
    lookups: { type: 'string', default: '32' },
    warmup: { type: 'string', default: '0' },
    /** The server's metrics port: adds the server-side durations of the served searches. */
    'metrics-url': { type: 'string' },
    /** Probes /health on a new connection this often (ms) during the mixed phases; 0: no probe. */
    'probe-every': { type: 'string', default: '500' },
    /** The server's HEALTH_PORT, probed beside the API port's /health. */
    'health-url': { type: 'string' },
  },
});
const base = new URL(values.url!);
if (!['127.0.0.1', 'localhost', '[::1]'].includes(base.hostname)) throw new Error('loopback targets only');
const seconds = Number(values.seconds);
const agent = new Agent({ keepAlive: true });
const headers = { authorization: `Bearer ${values.key}` };

interface Tally {
  statuses: Record<string, number>;
  okMs: number[];
  refusedMs: number[];
  refusedWithRetryAfter: number;
}

async function client(nextPath: () => string, until: number, tally: Tally): Promise<void> {
  while (performance.now() < until) {
    const sent = performance.now();
    const res = await send(nextPath());
    const ms = performance.now() - sent;
    tally.statuses[res.statusCode] = (tally.statuses[res.statusCode] ?? 0) + 1;
    if (res.statusCode === 200) tally.okMs.push(ms);
    else {
      tally.refusedMs.push(ms);
      if (res.statusCode !== 429 && res.headers['retry-after'] !== undefined) tally.refusedWithRetryAfter++;
    }
  }
}

type Tallies = Record<string, Tally>;

async function phase(
  classes: Record<string, { clients: number; path: () => string }>,
  forSeconds = seconds,
): Promise<Tallies> {
  const until = performance.now() + forSeconds * 1000;
  const tallies: Tallies = {};
  await Promise.all(
    Object.entries(classes).flatMap(([name, { clients, path }]) => {
      const tally: Tally = (tallies[name] = emptyTally());
      return Array.from({ length: clients }, () => client(path, until, tally));
    }),
  );
  return tallies;
}

function emptyTally(): Tally {
  return { statuses: {}, okMs: [], refusedMs: [], refusedWithRetryAfter: 0 };
}

/** The tallies of several phases of the same classes, added up. */
function added(phases: Tallies[]): Tallies {
  const sum: Tallies = {};
  for (const tallies of phases) {
    for (const [name, tally] of Object.entries(tallies)) {
      const into = (sum[name] ??= emptyTally());
      for (const [status, count] of Object.entries(tally.statuses))
        into.statuses[status] = (into.statuses[status] ?? 0) + count;
      into.okMs = into.okMs.concat(tally.okMs);
      into.refusedMs = into.refusedMs.concat(tally.refusedMs);
      into.refusedWithRetryAfter += tally.refusedWithRetryAfter;
    }
  }
  return sum;
}

function summary(tallies: Tallies, forSeconds: number) {
  return Object.fromEntries(
    Object.entries(tallies).map(([name, tally]) => [
      name,
      {
        rps: Math.round((tally.okMs.length + tally.refusedMs.length) / forSeconds),
        ok_rps: Math.round(tally.okMs.length / forSeconds),
        statuses: tally.statuses,
        ok_p50_ms: percentile(tally.okMs, 0.5),
        ok_p95_ms: percentile(tally.okMs, 0.95),
        refused_p50_ms: percentile(tally.refusedMs, 0.5),
        refused_p95_ms: percentile(tally.refusedMs, 0.95),
        refused_max_ms: percentile(tally.refusedMs, 1),
        refused_with_retry_after: tally.refusedWithRetryAfter,
      },
    ]),
  );
}

/** Cumulative counts of `/v1/search` answers of one status by bucket upper bound (seconds). */
type Buckets = Map<number, number>;

/** The search duration buckets of `/metrics` by status ("200" served, "500" refused), or null. */
async function searchBuckets(): Promise<Record<string, Buckets> | null> {
  if (!values['metrics-url']) return null;
  const text = await (await fetch(values['metrics-url'])).text();
  const byStatus: Record<string, Buckets> = { '200': new Map(), '500': new Map() };
  const line = /^http_request_duration_seconds_bucket\{(.*)\} (\d+)$/;
  for (const row of text.split('\n')) {
    const match = line.exec(row);
    if (!match || !match[1].includes('route="/v1/search"')) continue;
    const status = /status="(\d+)"/.exec(match[1])?.[1];
    if (!status || !byStatus[status]) continue;
    const le = /le="([^"]+)"/.exec(match[1])![1];
    byStatus[status].set(le === '+Inf' ? Number.POSITIVE_INFINITY : Number(le), Number(match[2]));
  }
  return byStatus;
}

/** What the server measured between two scrapes: served searches' and refusals' durations. */
function serverSide(before: Record<string, Buckets> | null, after: Record<string, Buckets> | null) {
  if (!before || !after) return {};
  const within = (status: string) => {
    const bounds = [...after[status].keys()].sort((x, y) => x - y);
    const counts = bounds.map((le) => after[status].get(le)! - (before[status].get(le) ?? 0));
    const total = counts[counts.length - 1] ?? 0;
    const share = (seconds: number) =>
      total ? Number((counts[bounds.indexOf(seconds)] / total).toFixed(3)) : null;
    const p95Bucket = bounds[counts.findIndex((count) => count >= 0.95 * total)];
    return { total, share, p95AtMostMs: total ? p95Bucket * 1000 : null };
  };
  const served = within('200');
  const refused = within('500');
  return {
    server_served_searches: served.total,
    server_served_within_250ms: served.share(0.25),
    server_served_within_1s: served.share(1),
    server_served_p95_at_most_ms: served.p95AtMostMs,
    server_refused_searches: refused.total,
    server_refused_within_50ms: refused.share(0.05),
    server_refused_p95_at_most_ms: refused.p95AtMostMs,
  };
}

/** What a probe in another process (as a kubelet's) saw of /health: ms to the answer on a new connection. */
const PROBE_TIMEOUT_MS = 10_000;
const PROBE_SCRIPT = `
const { get } = require('node:http');
const { performance } = require('node:perf_hooks');
const [url, every, timeout] = [process.argv[1], Number(process.argv[2]), Number(process.argv[3])];
let out = 0;
const probe = () => {
  out++;
  const sent = performance.now();
  const done = (status) => {
    console.log(JSON.stringify({ status, ms: Math.round(performance.now() - sent) }));
    if (--out === 0 && stopping) process.exit(0);
  };
  const req = get(url, { agent: false, timeout }, (res) => { res.resume(); res.on('end', () => done(res.statusCode)); });
  req.on('timeout', () => { req.destroy(); done(0); });
  req.on('error', () => undefined);
};
let stopping = false;
const timer = setInterval(probe, every);
process.on('SIGTERM', () => { stopping = true; clearInterval(timer); if (out === 0) process.exit(0); });`;

/**
 * Probes /health every `everyMs` on a new connection from a child process, so the flood's own event
 * loop in this process does not delay the probe; `stop` ends it and gives what each probe saw.
 */
function startProbe(
  url: string,
  everyMs: number,
): { stop(): Promise<Array<{ status: number; ms: number }>> } {
  const child = spawn(
    process.execPath,
    ['-e', PROBE_SCRIPT, url, String(everyMs), String(PROBE_TIMEOUT_MS)],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return {
    async stop() {
      // It stops probing, and exits once the probes still out are answered or timed out.
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      return out
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { status: number; ms: number });
    },
  };
}

function probeSummary(probes: Array<{ status: number; ms: number }>) {
  const ms = probes.map((probe) => probe.ms);
  return {
    probes: probes.length,
    statuses: probes.reduce<Record<string, number>>((counts, { status }) => {
      counts[status || 'timeout'] = (counts[status || 'timeout'] ?? 0) + 1;
      return counts;
    }, {}),
    p50_ms: percentile(ms, 0.5),
    p95_ms: percentile(ms, 0.95),
    max_ms: percentile(ms, 1),
    over_1s: ms.filter((value) => value > 1_000).length,
    over_3s: ms.filter((value) => value > 3_000).length,
  };
}

async function main(): Promise<void> {
  const db = new Client({ connectionString: values['database-url'] });
  await db.connect();
  const ids = await sampleTitleIds(db);
  const words = await sampleSearchWords(db, 5, 20_000);
  await db.end();
  const lookup = () => `/v1/titles/${pick(ids)}`;
  const search = () =>
    `/v1/search?q=${encodeURIComponent(pick(words))}&page=${1 + Math.floor(Math.random() * 5)}`;
  const lookups = Number(values.lookups);

  if (Number(values.warmup) > 0) {
    const warm = await phase({ lookups: { clients: lookups, path: lookup } }, Number(values.warmup));
    console.log(
      JSON.stringify({
        run: `warm-up: ${lookups} lookup clients, ${values.warmup} s`,
        ...summary(warm, Number(values.warmup)),
      }),
    );
  }
  const aloneRun = `${lookups} lookup clients alone`;
  const besideRun = `${lookups} lookup clients beside ${values.searchers} searching`;
  const alonePhases: Tallies[] = [];
  const besidePhases: Tallies[] = [];
  const before = await searchBuckets();
  const probeEvery = Number(values['probe-every']);
  const probeUrls: Record<string, string> = { probe_api_port: new URL('/health', base).toString() };
  if (values['health-url']) probeUrls.probe_health_port = values['health-url'];
  const probes: Record<string, Array<{ status: number; ms: number }>> = {};
  for (let cycle = 0; cycle < Number(values.cycles); cycle++) {
    for (const kind of ['alone', 'beside', 'beside', 'alone'] as const) {
      const running =
        kind === 'beside' && probeEvery > 0
          ? Object.entries(probeUrls).map(([name, url]) => [name, startProbe(url, probeEvery)] as const)
          : [];
      const tallies = await phase({
        lookups: { clients: lookups, path: lookup },
        ...(kind === 'beside' ? { searches: { clients: Number(values.searchers), path: search } } : {}),
      });
      for (const [name, probe] of running) (probes[name] ??= []).push(...(await probe.stop()));
      (kind === 'alone' ? alonePhases : besidePhases).push(tallies);
      console.log(
        JSON.stringify({ phase: kind === 'alone' ? aloneRun : besideRun, ...summary(tallies, seconds) }),
      );
    }
  }
  const alone = summary(added(alonePhases), seconds * alonePhases.length);
  const beside = summary(added(besidePhases), seconds * besidePhases.length);
  console.log(JSON.stringify({ run: `${aloneRun}, ${alonePhases.length} phases`, ...alone }));
  console.log(
    JSON.stringify({
      run: `${besideRun}, ${besidePhases.length} phases`,
      ...beside,
      ...serverSide(before, await searchBuckets()),
      ...Object.fromEntries(Object.entries(probes).map(([name, seen]) => [name, probeSummary(seen)])),
    }),
  );
  console.log(
    JSON.stringify({
      words: words.length,
      ratio_lookups: Math.round((beside.lookups.ok_rps / alone.lookups.ok_rps) * 100) / 100,
    }),
  );
  agent.destroy();
}

/** One GET, its body read and dropped. */
function send(
  path: string,
): Promise<{ statusCode: number; headers: Record<string, string | string[] | undefined> }> {
  return new Promise((resolve, reject) => {
    get(new URL(path, base), { agent, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve({ statusCode: res.statusCode ?? 0, headers: res.headers }));
      res.on('error', reject);
    }).on('error', reject);
  });
}

function pick<T>(items: readonly T[]): T {
  return items[Math.floor(Math.random() * items.length)];
}

function percentile(values: number[], q: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
