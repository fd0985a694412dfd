/**
 * A CPU profile of the cached title lookup (or, `--route search`, of the repeated search
 * `/v1/search?q=love`, answered from the search cache; `--route list`, of `/v1/movies`'s first page):
 * forks one checkout's compiled admission server (`full`) under `--cpu-prof`, requests one hot id (or
 * the search, or the page) for `--seconds` (50 connections), stops it, and prints the
 * server's CPU time per request and its self time grouped by where the code lives (our src, Nest,
 * Express and its helpers, the limits library, Node's HTTP, GC and other). Run it once per checkout
 * and Node version, e.g. main and a worktree of an earlier commit, on Node 20 and Node 24:
 *   npx tsc -p bench/tsconfig.admission.json   (in each checkout)
 *   BENCH_DATABASE_URL=… npx ts-node --transpile-only bench/lookup-profile.ts --checkout . --node node
 * Only the samples of the measured run count (V8's profile clock and process.hrtime are both the
 * monotonic clock). `--functions-out FILE` writes every function's µs per request, to diff checkouts.
 * `--server bare` profiles the admission bench's bare NestJS endpoint instead, to diff against it;
 * `--server bare+throttler` or `bare+guards`, that endpoint behind the framework's parts of the
 * pipeline (bench/admission-server.ts).
 */
import autocannon from 'autocannon';
import { fork } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { cachedRoutePaths, cachedRoutes } from './bench-routes';
import { FLOOR_MODES, isModeOf } from './server-modes';

const { values } = parseArgs({
  options: {
    checkout: { type: 'string', default: '.' },
    node: { type: 'string', default: process.execPath },
    seconds: { type: 'string', default: '10' },
    port: { type: 'string', default: '4271' },
    top: { type: 'string', default: '12' },
    // `lookup`, `search` or `list` (bench/bench-routes.ts).
    route: { type: 'string', default: 'lookup' },
    // `full` (the service) or `bare` (the fixed-body NestJS endpoint the admission bench compares it to).
    server: { type: 'string', default: 'full' },
    // Also write every function's µs per request (the measured window) here, to diff two checkouts.
    'functions-out': { type: 'string' },
  },
});
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/adm_bench';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  startTime: number;
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Where a frame's code lives. */
function area(url: string, name: string): string {
  if (name === '(garbage collector)') return 'gc';
  if (name === '(idle)' || name === '(program)') return name.slice(1, -1);
  if (url.includes('/node_modules/@nestjs/throttler/')) return 'throttler';
  if (url.includes('/node_modules/@nestjs/')) return 'nest';
  if (url.includes('/node_modules/'))
    return `node_modules/${url.split('/node_modules/').pop()!.split('/')[0]}`;
  if (url.includes('/dist/src/') || url.includes('/out/src/') || url.includes('/src/'))
    return 'service (src)';
  if (url.startsWith('node:') || url === '') return name === '' ? 'node (native)' : 'node (core)';
  return 'other';
}

/** Every server but `limits-overridden`, which answers the lookup as `full` does. */
const SERVERS = ['full', 'bare', ...FLOOR_MODES] as const;

async function main(): Promise<void> {
  const checkout = resolve(values.checkout!);
  const [route] = cachedRoutes(values.route!);
  if (!isModeOf(SERVERS, values.server!)) throw new Error(`--server is one of ${SERVERS.join(', ')}`);
  const path = values.server === 'full' ? (await cachedRoutePaths(DATABASE_URL))[route] : '/bare';
  const profileDir = mkdtempSync(join(tmpdir(), 'lookup-profile-'));
  const child = fork(join(checkout, 'bench/out/bench/admission-server.js'), [values.server!, values.port!], {
    execPath: values.node,
    execArgv: ['--cpu-prof', `--cpu-prof-dir=${profileDir}`],
    env: { ...process.env, DATABASE_URL, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const key = await new Promise<string>((resolvePromise, reject) => {
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
    child.on('message', (m: { type: string; key: string }) => m.type === 'ready' && resolvePromise(m.key));
  });
  const url = `http://127.0.0.1:${values.port}${path}`;
  const headers = { authorization: `Bearer ${key}` };
  // Twice, so the answer is cached; then a short warm-up.
  await autocannon({ url, connections: 1, amount: 2, headers });
  await autocannon({ url, connections: 50, duration: 2, headers });
  // V8's profile clock and process.hrtime are both the monotonic clock: only the measured run counts.
  const windowStart = Number(process.hrtime.bigint() / 1000n);
  const result = await autocannon({ url, connections: 50, duration: Number(values.seconds), headers });
  const windowEnd = Number(process.hrtime.bigint() / 1000n);
  await new Promise<void>((resolvePromise) => {
    child.removeAllListeners('exit');
    child.once('exit', () => resolvePromise());
    child.send({ type: 'stop' });
  });
  const file = readdirSync(profileDir).find((name) => name.endsWith('.cpuprofile'))!;
  const profile = JSON.parse(readFileSync(join(profileDir, file), 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const areas = new Map<string, number>();
  const functions = new Map<string, number>();
  let total = 0;
  let at = profile.startTime;
  const inWindow = profile.samples.map((_, i) => {
    at += profile.timeDeltas[i] ?? 0;
    return at >= windowStart && at <= windowEnd;
  });
  // Were the clocks not the same, the whole profile (start-up included) is what is left.
  const windowed = inWindow.some(Boolean);
  profile.samples.forEach((sample, i) => {
    if (windowed && !inWindow[i]) return;
    const { functionName, url: frameUrl, lineNumber } = byId.get(sample)!.callFrame;
    const delta = profile.timeDeltas[i] ?? 0;
    total += delta;
    const where = area(frameUrl, functionName);
    areas.set(where, (areas.get(where) ?? 0) + delta);
    const name = `${functionName || '(anonymous)'} ${frameUrl.split('/').slice(-2).join('/')}:${lineNumber}`;
    functions.set(name, (functions.get(name) ?? 0) + delta);
  });
  const busy = total - (areas.get('idle') ?? 0);
  const share = (micros: number) => Math.round((micros / busy) * 1000) / 10;
  const sorted = (map: Map<string, number>) =>
    [...map].filter(([name]) => name !== 'idle' && !name.startsWith('(idle)')).sort((a, b) => b[1] - a[1]);
  const requests = result.requests.total;
  if (values['functions-out'])
    writeFileSync(
      values['functions-out'],
      JSON.stringify(
        Object.fromEntries(sorted(functions).map(([name, micros]) => [name, micros / requests])),
      ),
    );
  console.log(
    JSON.stringify(
      {
        checkout,
        node: values.node,
        path,
        requestsPerSecond: Math.round(result.requests.average),
        profiled: windowed ? 'the measured run only' : 'the whole process, start-up included',
        busyMicrosPerRequest: Math.round(busy / requests),
        areaPercentOfBusy: Object.fromEntries(sorted(areas).map(([name, micros]) => [name, share(micros)])),
        topFunctionsPercentOfBusy: Object.fromEntries(
          sorted(functions)
            .slice(0, Number(values.top))
            .map(([name, micros]) => [name, share(micros)]),
        ),
      },
      null,
      2,
    ),
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
