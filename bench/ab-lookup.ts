/**
 * The cached title lookup of several compiled checkouts A/B, finely interleaved beside a bare NestJS
 * endpoint: a shared machine's load moves within seconds, so only per-round ratios compare.
 * Options (`--node`, `--routes`, `--floors`, `--server-cpus`): bench/README.md. Report: bench/out/ab-lookup-<timestamp>.json.
 *
 *   npx tsc -p bench/tsconfig.admission.json --outDir <dir>/bench/out    (per checkout or variant)
 *   BENCH_DATABASE_URL=… npx ts-node --transpile-only bench/ab-lookup.ts [--node PATH] \
 *     [--rounds 12 --seconds 3 --warmup 1] main=<dir of main> branch=<dir of the branch>
 */
import autocannon from 'autocannon';
import { type ChildProcess, fork } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { type CachedRoute, cachedRoutePaths, cachedRoutes } from './bench-routes';
import { FLOOR_MODES, type ServerMode, isModeOf } from './server-modes';
import { median } from './median';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    node: { type: 'string', default: process.execPath },
    rounds: { type: 'string', default: '12' },
    seconds: { type: 'string', default: '3' },
    warmup: { type: 'string', default: '1' },
    connections: { type: 'string', default: '50' },
    'base-port': { type: 'string', default: '4301' },
    routes: { type: 'string', default: 'lookup' },
    floors: { type: 'string', default: '' },
    'server-cpus': { type: 'string', default: '' },
  },
});
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/adm_bench';
const ROUNDS = Number(values.rounds);

interface Target {
  label: string;
  child: ChildProcess;
  url: string;
  key: string | null;
}

/** One server loaded on one route. */
interface Run {
  label: string;
  target: Target;
  path: string;
}

interface Sample {
  requestsPerSecond: number;
  cpuMicrosPerRequest: number;
  non2xx: number;
}

function start(label: string, checkout: string, mode: ServerMode, port: number): Promise<Target> {
  const child = fork(join(checkout, 'bench/out/bench/admission-server.js'), [mode, String(port)], {
    // `--server-cpus 1`: every server on those CPUs (`taskset -c`), the load generator left the rest.
    ...(values['server-cpus']
      ? { execPath: 'taskset', execArgv: ['-c', values['server-cpus'], values.node!] }
      : { execPath: values.node, execArgv: [] }),
    env: { ...process.env, DATABASE_URL, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolvePromise, reject) => {
    child.once('exit', (code) => reject(new Error(`${label} exited with ${code}`)));
    child.on('message', (m: { type: string; key: string | null }) => {
      if (m.type === 'ready') resolvePromise({ label, child, url: `http://127.0.0.1:${port}`, key: m.key });
    });
  });
}

function cpuMicros(target: Target): Promise<number> {
  return new Promise((resolvePromise) => {
    const onMessage = (m: { type: string; cpuMicros: number }) => {
      if (m.type !== 'stats') return;
      target.child.off('message', onMessage);
      resolvePromise(m.cpuMicros);
    };
    target.child.on('message', onMessage);
    target.child.send({ type: 'stats' });
  });
}

async function measure({ target, path }: Run): Promise<Sample> {
  const url = target.url + path;
  const headers: Record<string, string> = target.key ? { authorization: `Bearer ${target.key}` } : {};
  const connections = Number(values.connections);
  await autocannon({ url, connections, duration: Number(values.warmup), headers });
  const before = await cpuMicros(target);
  const result = await autocannon({ url, connections, duration: Number(values.seconds), headers });
  const after = await cpuMicros(target);
  return {
    requestsPerSecond: result.requests.average,
    cpuMicrosPerRequest: Math.round((after - before) / Math.max(1, result.requests.total)),
    non2xx: result.non2xx + result.errors,
  };
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;

async function main(): Promise<void> {
  const checkouts = positionals.map((arg) => {
    const [label, dir] = arg.split('=');
    if (!label || !dir) throw new Error(`expected label=dir, got ${arg}`);
    return { label, dir: resolve(dir) };
  });
  if (checkouts.length < 1) throw new Error('name at least one checkout: label=dir');
  const routes = cachedRoutes(values.routes!);
  const paths = await cachedRoutePaths(DATABASE_URL);
  // A run's label: the checkout's for the lookup alone (as before `--routes`), else checkout@route.
  const runLabel = (label: string, route: CachedRoute) =>
    routes.length === 1 && route === 'lookup' ? label : `${label}@${route}`;
  const floors = values.floors!.split(',').filter(Boolean);
  for (const floor of floors)
    if (!isModeOf(FLOOR_MODES, floor))
      throw new Error(`--floors takes ${FLOOR_MODES.join(', ')}; got ${floor}`);
  const basePort = Number(values['base-port']);
  const servers = [
    ...checkouts.map(({ label, dir }) => ({ label, dir, mode: 'full' as ServerMode })),
    ...(['bare', ...floors] as ServerMode[]).map((mode) => ({ label: mode, dir: checkouts[0].dir, mode })),
  ];
  const targets = await Promise.all(
    servers.map(({ label, dir, mode }, i) => start(label, dir, mode, basePort + i)),
  );
  const runs: Run[] = targets.flatMap((target, i) =>
    servers[i].mode === 'full'
      ? routes.map((route) => ({ label: runLabel(target.label, route), target, path: paths[route] }))
      : [{ label: target.label, target, path: '/bare' }],
  );
  const samples = new Map<string, Sample[]>(runs.map((run) => [run.label, []]));
  const loads: number[] = [];
  try {
    // An answer is cached on its second ask.
    for (const { target, path } of runs.filter((run) => run.path !== '/bare'))
      await autocannon({
        url: target.url + path,
        connections: 1,
        amount: 2,
        headers: { authorization: `Bearer ${target.key}` },
      });
    for (let round = 0; round < ROUNDS; round++) {
      loads.push(loadavg()[0]);
      for (let k = 0; k < runs.length; k++) {
        const run = runs[(round + k) % runs.length];
        samples.get(run.label)!.push(await measure(run));
      }
      console.error(
        `round ${round + 1}: ${runs.map((r) => `${r.label} ${Math.round(samples.get(r.label)![round].requestsPerSecond)}`).join(', ')}`,
      );
    }
  } finally {
    for (const t of targets) t.child.send({ type: 'stop' });
  }

  const rounds = Array.from({ length: ROUNDS }, (_, i) => i);
  const of = (label: string, i: number) => samples.get(label)![i];
  /** Median over the rounds of a's over b's, by throughput and by CPU (b's CPU over a's: above 1, a is cheaper). */
  const versus = (a: string, b: string) => ({
    throughput: round3(median(rounds.map((i) => of(a, i).requestsPerSecond / of(b, i).requestsPerSecond))),
    cpu: round3(median(rounds.map((i) => of(b, i).cpuMicrosPerRequest / of(a, i).cpuMicrosPerRequest))),
  });
  const first = checkouts[0].label;
  const report = {
    command: `ab-lookup.ts ${process.argv.slice(2).join(' ')}`,
    date: new Date().toISOString(),
    machine: {
      cpus: cpus().length,
      cpu: cpus()[0]?.model,
      loadAverage1mPerRound: loads.map((l) => round3(l)),
    },
    serverNode: values.node,
    settings: { ...values, paths },
    checkouts,
    medians: Object.fromEntries(
      runs.map(({ label }) => [
        label,
        {
          requestsPerSecond: Math.round(median(samples.get(label)!.map((s) => s.requestsPerSecond))),
          cpuMicrosPerRequest: median(samples.get(label)!.map((s) => s.cpuMicrosPerRequest)),
          non2xx: samples.get(label)!.reduce((sum, s) => sum + s.non2xx, 0),
        },
      ]),
    ),
    /** Median of the per-round ratios. */
    versusFirst: Object.fromEntries(
      checkouts.slice(1).flatMap(({ label }) =>
        routes.map((route) => {
          const [mine, theirs] = [runLabel(label, route), runLabel(first, route)];
          return [`${mine} ÷ ${theirs}`, versus(mine, theirs)];
        }),
      ),
    ),
    versusBare: Object.fromEntries([
      ...checkouts.flatMap(({ label }) =>
        routes.map((route) => [`${runLabel(label, route)} ÷ bare`, versus(runLabel(label, route), 'bare')]),
      ),
      ...floors.map((floor) => [`${floor} ÷ bare`, versus(floor, 'bare')]),
    ]),
    /** Each route's CPU per request ÷ the framework's floor's (the last of `--floors`): the median per-round ratio. */
    versusFloor: Object.fromEntries(
      floors.length === 0
        ? []
        : checkouts.flatMap(({ label }) =>
            routes.map((route) => {
              const run = runLabel(label, route);
              const floor = floors[floors.length - 1];
              return [
                `${run} ÷ ${floor}`,
                round3(
                  median(
                    rounds.map((i) => of(run, i).cpuMicrosPerRequest / of(floor, i).cpuMicrosPerRequest),
                  ),
                ),
              ];
            }),
          ),
    ),
    /** The repeated search ÷ cached lookup (a goal of the hot path), per checkout (with `--routes lookup,search`). */
    searchVersusLookup: Object.fromEntries(
      routes.includes('lookup') && routes.includes('search')
        ? checkouts.map(({ label }) => [
            `${label}: search ÷ lookup`,
            versus(runLabel(label, 'search'), runLabel(label, 'lookup')),
          ])
        : [],
    ),
    perRound: Object.fromEntries([...samples].map(([label, list]) => [label, list])),
  };
  const out = join(__dirname, 'out');
  mkdirSync(out, { recursive: true });
  writeFileSync(
    join(out, `ab-lookup-${report.date.replace(/[:.]/g, '-')}.json`),
    JSON.stringify(report, null, 2),
  );
  console.log(JSON.stringify({ ...report, perRound: undefined }, null, 2));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
