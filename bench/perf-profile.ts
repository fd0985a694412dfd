/**
 * Where all of a server's CPU goes on a cached route, the kernel's included: forks one checkout's
 * compiled admission server (`full`, or a floor with `--server`) with `--perf-basic-prof-only-functions`,
 * loads the route (50 connections) and records it with Linux `perf record` (cpu-clock, call chains)
 * for the middle of the run. Prints the server's user and system CPU µs per request (from /proc), and
 * the samples as µs per request by the JavaScript frame nearest the leaf (a native or kernel frame
 * under it counts for it: a socket write's kernel time for `writevGeneric`), grouped by where that
 * code lives. V8's `--cpu-prof` (`lookup-profile.ts`) sees neither the kernel's part nor time spent
 * preempted apart from CPU used; this does, and splits the CPU time `ab-lookup.ts` compares.
 *   npx tsc -p bench/tsconfig.admission.json   (in the checkout)
 *   BENCH_DATABASE_URL=… npx ts-node --transpile-only bench/perf-profile.ts --checkout . \
 *     [--node PATH] [--route lookup|search|list] [--server full|bare+guards|…] [--out FILE]
 * Needs `perf` (Debian's linux-perf) allowed to record the process (root, or perf_event_paranoid ≤ 1).
 * `--out FILE` writes every frame's µs per request; `--against FILE` (another run's `--out`, e.g. of
 * `--server bare+guards`) adds the frames that cost this run the most over that one.
 * Irregexp's compiled code has no symbol of its own: its samples show under whatever symbol the
 * perf map last gave that address (seen as `parseSource` of Node's CJS lexer) with the caller above.
 */
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
    seconds: { type: 'string', default: '8' },
    port: { type: 'string', default: '4281' },
    top: { type: 'string', default: '25' },
    out: { type: 'string' },
    against: { type: 'string' },
  },
});
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/adm_bench';
const SERVERS = ['full', 'bare', ...FLOOR_MODES] as const;

/** User and system CPU time of a process so far, in clock ticks (/proc/PID/stat fields 14 and 15). */
function cpuTicks(pid: number): { user: number; system: number } {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return { user: Number(fields[11]), system: Number(fields[12]) };
}
/** Linux's USER_HZ, which /proc reports ticks in. */
const MICROS_PER_TICK = 10_000;

/** Where a frame's code lives. */
function area(frame: string): string {
  if (!frame.startsWith('JS:')) return 'native or kernel, no JS frame above';
  const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(frame);
  if (modules) return `node_modules/${modules[1]}`;
  if (/\/(?:dist|out)\/src\//.test(frame)) return 'service (src)';
  if (frame.includes('node:')) return 'node (core)';
  return 'other JS';
}

/**
 * A frame's name without the checkout's path and V8's tier marks (`*` optimized, `~` interpreted,
 * `+` and `^` the tiers between, `'` a context-specialized copy), so two runs name a function alike.
 */
function frameName(frame: string, checkout: string): string {
  return frame.replace(/^JS:[*~+^']*/, 'JS:').replace(`${checkout}/`, '');
}

/** Each sample's frames, leaf first, from `perf script -F ip,sym`. */
function samplesOf(script: string): string[][] {
  const samples: string[][] = [];
  let frames: string[] = [];
  for (const line of script.split('\n')) {
    const trimmed = line.trim();
    if (trimmed === '') {
      if (frames.length > 0) samples.push(frames);
      frames = [];
      continue;
    }
    const space = trimmed.indexOf(' ');
    frames.push(space === -1 ? '?' : trimmed.slice(space + 1));
  }
  if (frames.length > 0) samples.push(frames);
  return samples;
}

/** The frames that cost more here than in `file` (another run's `--out`), largest first, in µs per request. */
function above(byFrame: Map<string, number>, file: string): Record<string, number> {
  const other = JSON.parse(readFileSync(file, 'utf8')) as Record<string, number>;
  const names = new Set([...byFrame.keys(), ...Object.keys(other)]);
  return Object.fromEntries(
    [...names]
      .map((name): [string, number] => [name, (byFrame.get(name) ?? 0) - (other[name] ?? 0)])
      .sort((a, b) => b[1] - a[1])
      .slice(0, Number(values.top))
      .map(([name, micros]) => [name, Math.round(micros * 100) / 100]),
  );
}

function run(command: string, args: string[]): Promise<string> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.once('error', fail);
    child.once('exit', (code) =>
      code === 0 ? done(Buffer.concat(chunks).toString()) : fail(new Error(`${command} exited with ${code}`)),
    );
  });
}

async function main(): Promise<void> {
  const checkout = resolve(values.checkout!);
  const [route] = cachedRoutes(values.route!);
  if (!isModeOf(SERVERS, values.server!)) throw new Error(`--server is one of ${SERVERS.join(', ')}`);
  const seconds = Number(values.seconds);
  const path = values.server === 'full' ? (await cachedRoutePaths(DATABASE_URL))[route] : '/bare';
  const dir = mkdtempSync(join(tmpdir(), 'perf-profile-'));
  // In the temporary folder: with the perf map, V8 writes its isolate log to the working directory.
  const { child, ready } = startAdmissionServer({
    checkout,
    mode: values.server!,
    port: values.port!,
    node: values.node!,
    execArgv: ['--perf-basic-prof-only-functions'],
    databaseUrl: DATABASE_URL,
    cwd: dir,
  });
  try {
    const key = await ready;
    const url = `http://127.0.0.1:${values.port}${path}`;
    const headers = { authorization: `Bearer ${key}` };
    await autocannon({ url, connections: 1, amount: 2, headers });
    await autocannon({ url, connections: 50, duration: 2, headers });
    const data = join(dir, 'perf.data');
    // The middle of the measured run: a second after it starts, until a second before it ends.
    const recording = new Promise<void>((done, fail) => {
      setTimeout(() => {
        const perf = spawn(
          'perf',
          ['record', '-q', '-e', 'cpu-clock', '-F', '2000', '-g', '-p', String(child.pid), '-o', data],
          { stdio: 'ignore' },
        );
        perf.once('error', fail);
        setTimeout(() => perf.kill('SIGINT'), (seconds - 2) * 1000);
        perf.once('exit', () => done());
      }, 1000);
    });
    const before = cpuTicks(child.pid!);
    const result = await autocannon({ url, connections: 50, duration: seconds, headers });
    const after = cpuTicks(child.pid!);
    await recording;
    const requests = result.requests.total;
    const userMicros = ((after.user - before.user) * MICROS_PER_TICK) / requests;
    const systemMicros = ((after.system - before.system) * MICROS_PER_TICK) / requests;
    const samples = samplesOf(await run('perf', ['script', '-i', data, '-F', 'ip,sym']));
    // Every sample stands for the same share of the run's CPU per request.
    const perSample = (userMicros + systemMicros) / samples.length;
    const byFrame = new Map<string, number>();
    const byArea = new Map<string, number>();
    for (const frames of samples) {
      const frame = frameName(frames.find((name) => name.startsWith('JS:')) ?? frames[0], checkout);
      byFrame.set(frame, (byFrame.get(frame) ?? 0) + perSample);
      byArea.set(area(frame), (byArea.get(area(frame)) ?? 0) + perSample);
    }
    const sorted = (map: Map<string, number>) =>
      [...map].sort((a, b) => b[1] - a[1]).map(([name, micros]) => [name, Math.round(micros * 100) / 100]);
    if (values.out) writeFileSync(values.out, JSON.stringify(Object.fromEntries(sorted(byFrame))));
    console.log(
      JSON.stringify(
        {
          checkout,
          node: values.node,
          server: values.server,
          path,
          requestsPerSecond: Math.round(result.requests.average),
          cpuMicrosPerRequest: {
            user: Math.round(userMicros * 10) / 10,
            system: Math.round(systemMicros * 10) / 10,
          },
          samples: samples.length,
          microsPerRequestByArea: Object.fromEntries(sorted(byArea)),
          topFramesMicrosPerRequest: Object.fromEntries(sorted(byFrame).slice(0, Number(values.top))),
          ...(values.against ? { aboveAgainst: above(byFrame, values.against) } : {}),
        },
        null,
        2,
      ),
    );
  } finally {
    await stopAdmissionServer(child);
    rmSync(dir, { recursive: true, force: true });
    // The symbol map V8 wrote for perf (`perf-<pid>.map` in the system's temporary folder).
    rmSync(join(tmpdir(), `perf-${child.pid}.map`), { force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
