/**
 * What OpenTelemetry tracing costs on the cached title lookup: the built server (`node dist/main.js`)
 * on PostgreSQL with the sample catalog, three at once: tracing off (no OTEL_* variable), on with
 * every trace sampled, and on with 1% sampled (OTEL_TRACES_SAMPLER=parentbased_traceidratio), the
 * two exporting over OTLP/HTTP (protobuf, the default) to a sink in this process that drops what it
 * gets. Each round loads each server in turn (the order rotated every round) with autocannon after a
 * warm-up; reported are the medians over the rounds of throughput, latency and the server's CPU time
 * per request (from /proc), and of each round's ratio against "off".
 *
 *   npm run build && npx ts-node --transpile-only bench/tracing-cost.ts [--rounds 3 --seconds 10] [--node PATH]
 * (`--node`: the servers' runtime, e.g. Node 24's; the load generator runs on this process's)
 * (needs PostgreSQL on 127.0.0.1:5432; BENCH_ADMIN_URL names another admin URL)
 */
import autocannon from 'autocannon';
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from 'pg';
import { median } from './median';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '3' },
    connections: { type: 'string', default: '20' },
    node: { type: 'string', default: process.execPath },
  },
});
const ROOT = join(__dirname, '..');
const ADMIN_URL = process.env.BENCH_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB = 'api_bench_tracing';
const DATABASE_URL = new URL(ADMIN_URL);
DATABASE_URL.pathname = `/${DB}`;
const LOOKUP = '/v1/titles/tt0111161';

const MODES = {
  off: {},
  'on, all sampled': {},
  'on, 1% sampled': { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.01' },
} as const;
type Mode = keyof typeof MODES;

interface Server {
  mode: Mode;
  child: ChildProcess;
  url: string;
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;

function cli(args: string[]): string {
  return execFileSync(process.execPath, [join(ROOT, 'dist/cli.js'), ...args], {
    env: { ...process.env, DATABASE_URL: DATABASE_URL.href, LOG_LEVEL: 'warn' },
    encoding: 'utf8',
  });
}

/** CPU time (user + system) the process has used, in microseconds (Linux /proc, 100 ticks a second). */
function cpuMicros(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

async function startServer(mode: Mode, port: number, sink: string): Promise<Server> {
  const tracing = mode === 'off' ? {} : { OTEL_EXPORTER_OTLP_ENDPOINT: sink, ...MODES[mode] };
  const child = spawn(values.node!, [join(ROOT, 'dist/main.js')], {
    env: {
      ...process.env,
      DATABASE_URL: DATABASE_URL.href,
      LOG_LEVEL: 'warn',
      PORT: String(port),
      HOST: '127.0.0.1',
      ...tracing,
    },
    stdio: 'ignore',
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`${url}/health`)).ok) return { mode, child, url };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${mode} did not start`);
}

async function main(): Promise<void> {
  const admin = new Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${DB}`);
  const servers: Server[] = [];
  let spansReceived = 0;
  const sink = createServer((req, res) => {
    req.on('data', () => undefined);
    req.on('end', () => {
      spansReceived++;
      res.writeHead(200).end();
    });
  });
  try {
    cli(['db:migrate']);
    cli([
      'catalog:ingest',
      '--basics',
      join(ROOT, 'sample-data/title.basics.tsv'),
      '--ratings',
      join(ROOT, 'sample-data/title.ratings.tsv'),
      '--enrichment',
      join(ROOT, 'sample-data/enrichment.ndjson'),
    ]);
    const key = (
      JSON.parse(
        cli([
          'keys:create',
          '--name',
          'bench',
          '--rpm',
          '1000000',
          '--monthly-quota',
          '1000000000',
          '--json',
        ]),
      ) as {
        key: string;
      }
    ).key;
    await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
    const sinkUrl = `http://127.0.0.1:${(sink.address() as AddressInfo).port}`;
    const modes = Object.keys(MODES) as Mode[];
    for (const [i, mode] of modes.entries()) servers.push(await startServer(mode, 4561 + i, sinkUrl));

    const headers = { authorization: `Bearer ${key}` };
    const connections = Number(values.connections);
    const samples = new Map<Mode, { rps: number; p50: number; p99: number; cpuPerRequest: number }[]>(
      modes.map((mode) => [mode, []]),
    );
    const loads: number[] = [];
    for (let round = 0; round < Number(values.rounds); round++) {
      loads.push(loadavg()[0]);
      for (let k = 0; k < servers.length; k++) {
        const server = servers[(round + k) % servers.length];
        const url = server.url + LOOKUP;
        await autocannon({ url, connections, duration: Number(values.warmup), headers });
        const before = cpuMicros(server.child.pid!);
        const result = await autocannon({ url, connections, duration: Number(values.seconds), headers });
        const cpu = cpuMicros(server.child.pid!) - before;
        if (result.non2xx + result.errors > 0)
          throw new Error(`${server.mode}: ${result.non2xx} non-2xx answers`);
        samples.get(server.mode)!.push({
          rps: result.requests.average,
          p50: result.latency.p50,
          p99: result.latency.p99,
          cpuPerRequest: cpu / result.requests.total,
        });
        console.error(`round ${round + 1} ${server.mode}: ${Math.round(result.requests.average)} req/s`);
      }
    }
    const of = (mode: Mode) => samples.get(mode)!;
    const rounds = of('off').map((_, i) => i);
    const report = {
      command: `bench/tracing-cost.ts ${process.argv.slice(2).join(' ')}`.trim(),
      date: new Date().toISOString(),
      machine: {
        cpus: cpus().length,
        cpu: cpus()[0]?.model,
        serverNode: execFileSync(values.node!, ['--version'], { encoding: 'utf8' }).trim(),
        loadAverage1mPerRound: loads.map(round3),
      },
      settings: { ...values, route: LOOKUP },
      medians: Object.fromEntries(
        modes.map((mode) => [
          mode,
          {
            requestsPerSecond: Math.round(median(of(mode).map((s) => s.rps))),
            latencyP50Ms: median(of(mode).map((s) => s.p50)),
            latencyP99Ms: median(of(mode).map((s) => s.p99)),
            cpuMicrosPerRequest: Math.round(median(of(mode).map((s) => s.cpuPerRequest))),
          },
        ]),
      ),
      /** Medians of the per-round ratios against tracing off. */
      versusOff: Object.fromEntries(
        modes.slice(1).map((mode) => [
          mode,
          {
            throughput: round3(median(rounds.map((i) => of(mode)[i].rps / of('off')[i].rps))),
            cpuPerRequest: round3(
              median(rounds.map((i) => of(mode)[i].cpuPerRequest / of('off')[i].cpuPerRequest)),
            ),
          },
        ]),
      ),
      exportsReceived: spansReceived,
      perRound: Object.fromEntries(samples),
    };
    console.log(JSON.stringify(report, null, 2));
  } finally {
    for (const server of servers) server.child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    sink.close();
    await admin.query(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
    await admin.end();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
