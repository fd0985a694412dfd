/**
 * How often a server's property reads and writes miss V8's inline caches on a cached route: forks one
 * checkout's compiled admission server (`full`, or a floor with `--server`) under V8's `--log-ic`,
 * loads the route (50 connections) and counts, over the measured run only, the logged misses of
 * megamorphic sites (new state `N`: the site has seen too many hidden classes, so a miss goes to
 * V8's runtime), per request, with the distinct hidden classes ("maps") those misses saw. When
 * every request's objects share their hidden classes the misses stop once the stub cache is warm;
 * when each request's objects get classes of their own, every read of them misses, every time.
 *   npx tsc -p bench/tsconfig.admission.json   (in the checkout)
 *   BENCH_DATABASE_URL=… npx ts-node --transpile-only bench/ic-misses.ts --checkout . \
 *     [--node PATH] [--route lookup|search|list] [--server full|bare|bare+guards|…] [--seconds 3]
 * The log slows the server tenfold: read the counts, not its speed.
 */
import autocannon from 'autocannon';
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startAdmissionServer, stopAdmissionServer } from './admission-process';
import { cachedRoutePaths, cachedRoutes } from './bench-routes';
import { FLOOR_MODES, isModeOf } from './server-modes';

const { values } = parseArgs({
  options: {
    checkout: { type: 'string', default: '.' },
    node: { type: 'string', default: process.execPath },
    route: { type: 'string', default: 'lookup' },
    server: { type: 'string', default: 'full' },
    seconds: { type: 'string', default: '3' },
    port: { type: 'string', default: '4291' },
    top: { type: 'string', default: '12' },
  },
});
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/adm_bench';
const SERVERS = ['full', 'bare', ...FLOOR_MODES] as const;
const IC_KINDS = new Set(['LoadIC', 'StoreIC', 'KeyedLoadIC', 'KeyedStoreIC']);

/** The log's text from byte `from` on. */
function logFrom(file: string, from: number): string {
  const length = statSync(file).size - from;
  const buffer = Buffer.alloc(length);
  const fd = openSync(file, 'r');
  try {
    readSync(fd, buffer, 0, length, from);
  } finally {
    closeSync(fd);
  }
  return buffer.toString('utf8');
}

/** Megamorphic misses in `--log-ic` lines: `kind,pc,time,line,column,old,new,map,key,modifier,reason`. */
function megamorphicMisses(log: string): { misses: number; maps: Set<string>; byKey: Map<string, number> } {
  let misses = 0;
  const maps = new Set<string>();
  const byKey = new Map<string, number>();
  for (const line of log.split('\n')) {
    const fields = line.split(',');
    if (!IC_KINDS.has(fields[0]) || fields[6] !== 'N') continue;
    misses += 1;
    maps.add(fields[7]);
    const key = `${fields[0]} ${fields[8]}`;
    byKey.set(key, (byKey.get(key) ?? 0) + 1);
  }
  return { misses, maps, byKey };
}

async function main(): Promise<void> {
  const checkout = resolve(values.checkout!);
  const [route] = cachedRoutes(values.route!);
  if (!isModeOf(SERVERS, values.server!)) throw new Error(`--server is one of ${SERVERS.join(', ')}`);
  const path = values.server === 'full' ? (await cachedRoutePaths(DATABASE_URL))[route] : '/bare';
  const dir = mkdtempSync(join(tmpdir(), 'ic-misses-'));
  const logFile = join(dir, 'ic.log');
  const { child, ready } = startAdmissionServer({
    checkout,
    mode: values.server!,
    port: values.port!,
    node: values.node!,
    execArgv: ['--log-ic', `--logfile=${logFile}`, '--no-logfile-per-isolate'],
    databaseUrl: DATABASE_URL,
  });
  try {
    const key = await ready;
    const url = `http://127.0.0.1:${values.port}${path}`;
    const headers = { authorization: `Bearer ${key}` };
    // Warm: the caches filled and the sites past their first states.
    await autocannon({ url, connections: 50, duration: 2, headers });
    const from = statSync(logFile).size;
    const result = await autocannon({ url, connections: 50, duration: Number(values.seconds), headers });
    await stopAdmissionServer(child);
    const requests = result.requests.total;
    const { misses, maps, byKey } = megamorphicMisses(logFrom(logFile, from));
    const perRequest = (n: number) => Math.round((n / requests) * 100) / 100;
    console.log(
      JSON.stringify(
        {
          checkout,
          node: values.node,
          nodeVersion: execFileSync(values.node!, ['-p', 'process.version']).toString().trim(),
          server: values.server,
          path,
          requests,
          non2xx: result.non2xx,
          megamorphicMissesPerRequest: perRequest(misses),
          distinctMapsPerRequest: perRequest(maps.size),
          topKeysPerRequest: Object.fromEntries(
            [...byKey]
              .sort((a, b) => b[1] - a[1])
              .slice(0, Number(values.top))
              .map(([name, n]) => [name, perRequest(n)]),
          ),
        },
        null,
        2,
      ),
    );
  } finally {
    await stopAdmissionServer(child);
    rmSync(dir, { recursive: true, force: true });
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
