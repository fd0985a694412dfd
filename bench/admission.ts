/**
 * The admission-path benchmark (`npm run bench`): what API keys, limits and the caches cost on the
 * hot path, against a bare NestJS endpoint in interleaved rounds. Needs a loaded catalog on
 * PostgreSQL (BENCH_DATABASE_URL, default `adm_bench`), loopback only. Scenarios and output:
 * bench/README.md.
 *   npm run bench [-- --rounds 3 --seconds 10 --warmup 3 --connections 50 --scenarios full,bare]
 */
import autocannon from 'autocannon';
import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from 'pg';
import { entityTag } from '../src/common/conditional/conditional-reply';
import { median } from './median';

/**
 * A working set that fits the title cache, and one about ten times what the default cache budget's
 * title share holds (~23,000 titles of the generated catalog: bench/RESULTS.md, cache memory).
 */
const SPREAD_IDS = 5_000;
const WIDE_IDS = 200_000;
/** The list pages the random-page scenario cycles over. */
const LIST_PAGES = 2_000;

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '3' },
    connections: { type: 'string', default: '50' },
    'base-port': { type: 'string', default: '4201' },
    // A comma-separated subset of the scenarios below, to iterate on one comparison (e.g. bare,health).
    scenarios: { type: 'string' },
  },
});
const ROUNDS = Number(values.rounds);
const SECONDS = Number(values.seconds);
const WARMUP = Number(values.warmup);
const CONNECTIONS = Number(values.connections);
const BASE_PORT = Number(values['base-port']);
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/adm_bench';

interface Server {
  mode: string;
  url: string;
  key: string | null;
  child: ChildProcess;
}

type Request = { path?: string; headers?: Record<string, string> };

interface Run {
  scenario: string;
  round: number;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  statuses: Record<string, number>;
  /** The server's CPU time (user + system) per answered request, in µs. */
  cpuMicrosPerRequest: number;
  statements?: number;
  rssMb?: number;
}

/**
 * Servers run as compiled JavaScript (`npm run bench` builds them), as in production: under ts-node
 * `node:domain` adds a check to every event and promise, which production never pays.
 */
const COMPILED = __filename.endsWith('.js');
const SERVER_SCRIPT = join(__dirname, COMPILED ? 'admission-server.js' : 'admission-server.ts');

function startServer(mode: string, port: number): Promise<Server> {
  const child = fork(SERVER_SCRIPT, [mode, String(port)], {
    execArgv: COMPILED ? [] : ['-r', 'ts-node/register/transpile-only'],
    env: { ...process.env, DATABASE_URL, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${mode} server exited with ${code}`)));
    child.on('message', (message: { type: string; key: string | null }) => {
      if (message.type === 'ready')
        resolve({ mode, url: `http://127.0.0.1:${port}`, key: message.key, child });
    });
  });
}

interface ServerStats {
  rss: number;
  statements: number;
  cpuMicros: number;
}

function stats(server: Server): Promise<ServerStats> {
  return new Promise((resolve) => {
    const onMessage = (message: ServerStats & { type: string }) => {
      if (message.type !== 'stats') return;
      server.child.off('message', onMessage);
      resolve(message);
    };
    server.child.on('message', onMessage);
    server.child.send({ type: 'stats' });
  });
}

async function load(
  url: string,
  seconds: number,
  headers: Record<string, string>,
  setupRequest?: (req: Request) => Request,
  amount?: number,
) {
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    ...(amount ? { amount } : { duration: seconds }),
    headers,
    requests: setupRequest ? [{ setupRequest }] : undefined,
  });
  const statuses: Record<string, number> = {};
  for (const [code, count] of Object.entries(result.statusCodeStats ?? {})) statuses[code] = count.count;
  if (result.errors) statuses.errors = result.errors;
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    statuses,
  };
}

/** Half malformed, half well-formed but unknown; every key distinct. */
function invalidKey(i: number): string {
  return i % 2 === 0
    ? `mov_live_${randomBytes(20).toString('hex').slice(0, 30)}`
    : `mov_live_${randomBytes(32).toString('base64url')}`;
}

/** The comparisons reported, each `a` over `b` (throughput), in every round and as medians. */
const PAIRS: Record<string, [string, string]> = {
  fullVsOverridden: ['full', 'overridden'],
  fullVsBare: ['full', 'bare'],
  healthVsBare: ['health', 'bare'],
  fullSpreadVsOverriddenSpread: ['full-spread', 'overridden-spread'],
  fullSpreadVsBare: ['full-spread', 'bare'],
  fullWideVsBare: ['full-wide', 'bare'],
  notModifiedVsOk: ['304', 'full'],
  notModifiedSpreadVsOk: ['304-spread', 'full-spread'],
  moviesVsFull: ['movies', 'full'],
  moviesRandomVsMovies: ['movies-random', 'movies'],
  searchRepeatVsFull: ['search-repeat', 'full'],
};
/** The ones the goals name, also reported by CPU time per request. */
const CPU_PAIRS = ['fullVsOverridden', 'fullVsBare', 'healthVsBare', 'fullSpreadVsBare', 'notModifiedVsOk'];

async function main(): Promise<void> {
  const db = new Client({ connectionString: DATABASE_URL });
  await db.connect();
  const [{ imdb_id: imdbId, titles, version }] = (
    await db.query<{ imdb_id: string; titles: number; version: string }>(
      `SELECT (SELECT imdb_id FROM titles ORDER BY id OFFSET LEAST(500000, (SELECT count(*) / 2 FROM titles)) LIMIT 1) AS imdb_id,
              (SELECT title_count FROM catalog_state WHERE id = 1) AS titles,
              (SELECT catalog_version FROM catalog_state WHERE id = 1) AS version`,
    )
  ).rows;
  await db.query('SELECT setseed(0.42)');
  const sampled = (
    await db.query<{ imdb_id: string }>(`SELECT imdb_id FROM titles ORDER BY random() LIMIT ${WIDE_IDS}`)
  ).rows.map((row) => `/v1/titles/${row.imdb_id}`);
  await db.end();
  /** Cycles over the first `size` sampled lookups, optionally naming each one's ETag. */
  const cycling = (size: number, conditional = false) => {
    let next = 0;
    return (req: Request): Request => {
      const path = sampled[next++ % size];
      const headers = conditional
        ? { ...req.headers, 'if-none-match': entityTag(version, path) }
        : req.headers;
      return { ...req, path, headers };
    };
  };

  /** Pages 1..LIST_PAGES of movies in a fixed shuffled order (a linear congruential shuffle). */
  const moviePages = Array.from({ length: LIST_PAGES }, (_, i) => i + 1);
  for (let i = moviePages.length - 1, seed = 42; i > 0; i--) {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    const j = seed % (i + 1);
    [moviePages[i], moviePages[j]] = [moviePages[j], moviePages[i]];
  }
  let nextPage = 0;
  const randomMoviePage = (req: Request): Request => ({
    ...req,
    path: `/v1/movies?page=${moviePages[nextPage++ % LIST_PAGES]}`,
  });

  const [full, overridden, bare] = await Promise.all([
    startServer('full', BASE_PORT),
    startServer('limits-overridden', BASE_PORT + 1),
    startServer('bare', BASE_PORT + 2),
  ]);
  const runs: Run[] = [];
  const rss: number[] = [(await stats(full)).rss];
  let flood = 0;
  try {
    const lookup = `/v1/titles/${imdbId}`;
    const scenarios: Array<{
      name: string;
      server: Server;
      path: string;
      invalid?: boolean;
      ifNoneMatch?: string;
      setup?: (req: Request) => Request;
      prime?: number;
    }> = [
      // Compared pairs run back to back: the shared machine's load changes within seconds.
      { name: 'full', server: full, path: lookup },
      { name: '304', server: full, path: lookup, ifNoneMatch: entityTag(version, lookup) },
      { name: 'overridden', server: overridden, path: lookup },
      { name: 'bare', server: bare, path: '/bare' },
      { name: 'health', server: full, path: '/health' },
      // The working set is requested twice before the warm-up (the wide runs evict it).
      { name: 'full-spread', server: full, path: lookup, setup: cycling(SPREAD_IDS), prime: SPREAD_IDS },
      { name: '304-spread', server: full, path: lookup, setup: cycling(SPREAD_IDS, true) },
      {
        name: 'overridden-spread',
        server: overridden,
        path: lookup,
        setup: cycling(SPREAD_IDS),
        prime: SPREAD_IDS,
      },
      { name: 'full-wide', server: full, path: lookup, setup: cycling(WIDE_IDS) },
      { name: 'movies', server: full, path: '/v1/movies' },
      { name: 'movies-random', server: full, path: '/v1/movies', setup: randomMoviePage },
      { name: 'search-repeat', server: full, path: '/v1/search?q=love' },
      { name: 'flood', server: full, path: lookup, invalid: true },
    ];
    const chosen = values.scenarios?.split(',') ?? scenarios.map((scenario) => scenario.name);
    const unknown = chosen.filter((name) => !scenarios.some((scenario) => scenario.name === name));
    if (unknown.length > 0) throw new Error(`Unknown scenarios: ${unknown.join(', ')}`);
    for (let round = 1; round <= ROUNDS; round++) {
      for (const { name, server, path, invalid, ifNoneMatch, setup: cycle, prime } of scenarios) {
        if (!chosen.includes(name)) continue;
        const headers: Record<string, string> = server.key ? { authorization: `Bearer ${server.key}` } : {};
        if (ifNoneMatch) headers['if-none-match'] = ifNoneMatch;
        const setup = invalid
          ? (req: Request) => ({
              ...req,
              headers: { ...req.headers, authorization: `Bearer ${invalidKey(flood++)}` },
            })
          : cycle;
        // Twice: the cache keeps an id on its second miss.
        if (prime) await load(server.url + path, 0, headers, cycling(prime), 2 * prime);
        await load(server.url + path, WARMUP, headers, setup);
        const before = await stats(server);
        const result = await load(server.url + path, SECONDS, headers, setup);
        const after = await stats(server);
        const answered = Object.values(result.statuses).reduce((a, b) => a + b, 0);
        const run: Run = {
          scenario: name,
          round,
          ...result,
          cpuMicrosPerRequest: Math.round((after.cpuMicros - before.cpuMicros) / Math.max(1, answered)),
        };
        if (server === full) {
          run.statements = after.statements - before.statements;
          run.rssMb = Math.round(after.rss / 1e6);
          rss.push(after.rss);
        }
        runs.push(run);
        console.error(JSON.stringify(run));
      }
    }
  } finally {
    for (const server of [full, overridden, bare]) server.child.send({ type: 'stop' });
  }

  const summary: Record<
    string,
    {
      requestsPerSecond: number;
      p50: number;
      p99: number;
      cpuMicrosPerRequest: number;
      statementsPerRequest?: number;
    }
  > = {};
  for (const name of [...new Set(runs.map((run) => run.scenario))]) {
    const mine = runs.filter((run) => run.scenario === name);
    const requests = mine.map((run) => Object.values(run.statuses).reduce((a, b) => a + b, 0));
    summary[name] = {
      requestsPerSecond: median(mine.map((run) => run.requestsPerSecond)),
      p50: median(mine.map((run) => run.p50)),
      p99: median(mine.map((run) => run.p99)),
      cpuMicrosPerRequest: median(mine.map((run) => run.cpuMicrosPerRequest)),
    };
    if (name === 'flood') {
      summary[name].statementsPerRequest =
        mine.reduce((sum, run) => sum + (run.statements ?? 0), 0) / requests.reduce((a, b) => a + b, 0);
    }
  }
  const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;
  /** The pairs whose two scenarios both ran (`--scenarios` may leave some out). */
  const pairs = Object.entries(PAIRS).filter(([, [a, b]]) => a in summary && b in summary);
  const cpuPairs = pairs.filter(([name]) => CPU_PAIRS.includes(name));
  const roundNumbers = Array.from({ length: ROUNDS }, (_, i) => i + 1);
  const runOf = (name: string, round: number) =>
    runs.find((run) => run.scenario === name && run.round === round)!;
  /** Ratios within each round (runs minutes apart on a shared machine compare poorly). */
  const perRound = ([a, b]: [string, string]) =>
    roundNumbers.map((round) => ratio(runOf(a, round).requestsPerSecond, runOf(b, round).requestsPerSecond));
  /**
   * The same by CPU time per request (b's over a's: above 1, a is cheaper): other tenants of a shared
   * host move throughput by ±20% between runs, and CPU time much less.
   */
  const cpuPerRound = ([a, b]: [string, string]) =>
    roundNumbers.map((round) =>
      ratio(runOf(b, round).cpuMicrosPerRequest, runOf(a, round).cpuMicrosPerRequest),
    );
  const spread = (name: string, key: string) =>
    name in summary ? { [key]: ratio(summary[name].p99, summary[name].p50) } : {};
  const report = {
    command: `npm run bench${COMPILED ? '' : ':ts-node'} -- ${process.argv.slice(2).join(' ')}`.trim(),
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, cpu: cpus()[0]?.model, node: process.version },
    settings: {
      rounds: ROUNDS,
      seconds: SECONDS,
      warmup: WARMUP,
      connections: CONNECTIONS,
      servers: COMPILED ? 'compiled JavaScript' : 'ts-node',
      scenarios: Object.keys(summary),
      titles,
      imdbId,
      spreadIds: SPREAD_IDS,
      wideIds: WIDE_IDS,
      listPages: LIST_PAGES,
    },
    summary,
    /** Ratios of the medians over the rounds, and each server's p99 over its p50. */
    ratios: {
      ...Object.fromEntries(
        pairs.map(([name, [a, b]]) => [
          name,
          ratio(summary[a].requestsPerSecond, summary[b].requestsPerSecond),
        ]),
      ),
      ...spread('full', 'fullP99VsP50'),
      ...spread('full-spread', 'fullSpreadP99VsP50'),
    },
    /** The median of the per-round ratios: the figure to quote on a shared machine. */
    ratiosMedianOfRounds: Object.fromEntries(pairs.map(([name, pair]) => [name, median(perRound(pair))])),
    /** By CPU time per request (see `cpuPerRound`): median of rounds, then each round. */
    cpuRatiosMedianOfRounds: Object.fromEntries(
      cpuPairs.map(([name, pair]) => [name, median(cpuPerRound(pair))]),
    ),
    cpuRatiosPerRound: Object.fromEntries(cpuPairs.map(([name, pair]) => [name, cpuPerRound(pair)])),
    ratiosPerRound: Object.fromEntries(pairs.map(([name, pair]) => [name, perRound(pair)])),
    rssMb: {
      start: Math.round(rss[0] / 1e6),
      end: Math.round(rss[rss.length - 1] / 1e6),
      max: Math.round(Math.max(...rss) / 1e6),
    },
    runs,
  };
  const out = join(__dirname, COMPILED ? '..' : 'out');
  mkdirSync(out, { recursive: true });
  writeFileSync(
    join(out, `admission-${report.date.replace(/[:.]/g, '-')}.json`),
    JSON.stringify(report, null, 2),
  );
  console.log(JSON.stringify({ ...report, runs: undefined }, null, 2));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
