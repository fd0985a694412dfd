/**
 * A CPU profile of the cached title lookup: forks one checkout's compiled admission server (`full`)
 * under `--cpu-prof`, requests one hot id for `--seconds` (50 connections), stops it, and prints the
 * server's CPU time per request and its self time grouped by where the code lives (our src, Nest,
 * Express and its helpers, the limits library, Node's HTTP, GC and other). Run it once per checkout
 * and Node version, e.g. main and a worktree of an earlier commit, on Node 20 and Node 24:
 *   npx tsc -p bench/tsconfig.admission.json   (in each checkout)
 *   BENCH_DATABASE_URL=… npx ts-node --transpile-only bench/lookup-profile.ts --checkout . --node node
 */
import autocannon from 'autocannon';
import { fork } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from 'pg';

const { values } = parseArgs({
  options: {
    checkout: { type: 'string', default: '.' },
    node: { type: 'string', default: process.execPath },
    seconds: { type: 'string', default: '10' },
    port: { type: 'string', default: '4271' },
    top: { type: 'string', default: '12' },
  },
});
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/adm_bench';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
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

async function main(): Promise<void> {
  const checkout = resolve(values.checkout!);
  const db = new Client({ connectionString: DATABASE_URL });
  await db.connect();
  const [{ imdb_id: imdbId }] = (
    await db.query<{ imdb_id: string }>(
      'SELECT imdb_id FROM titles ORDER BY id OFFSET LEAST(500000, (SELECT count(*) / 2 FROM titles)) LIMIT 1',
    )
  ).rows;
  await db.end();
  const profileDir = mkdtempSync(join(tmpdir(), 'lookup-profile-'));
  const child = fork(join(checkout, 'bench/out/bench/admission-server.js'), ['full', values.port!], {
    execPath: values.node,
    execArgv: ['--cpu-prof', `--cpu-prof-dir=${profileDir}`],
    env: { ...process.env, DATABASE_URL, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const key = await new Promise<string>((resolvePromise, reject) => {
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
    child.on('message', (m: { type: string; key: string }) => m.type === 'ready' && resolvePromise(m.key));
  });
  const url = `http://127.0.0.1:${values.port}/v1/titles/${imdbId}`;
  const headers = { authorization: `Bearer ${key}` };
  // Twice, so the id is cached; then a short warm-up.
  await autocannon({ url, connections: 1, amount: 2, headers });
  await autocannon({ url, connections: 50, duration: 2, headers });
  const result = await autocannon({ url, connections: 50, duration: Number(values.seconds), headers });
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
  profile.samples.forEach((sample, i) => {
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
  console.log(
    JSON.stringify(
      {
        checkout,
        node: values.node,
        requestsPerSecond: Math.round(result.requests.average),
        // The whole profile (start-up included) over the requests answered in the measured run.
        busyMicrosPerRequestUpperBound: Math.round(busy / requests),
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
