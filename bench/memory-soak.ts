/**
 * Server memory under a long mixed load: the full app (bench/admission-server.ts) on a
 * loaded catalog (BENCH_DATABASE_URL, default `adm_bench`), 50 connections of lookups (a 5,000-id
 * working set and a crawl over 200,000 ids), searches (500 distinct first words of titles) and list
 * pages (movies 1–50 and 1–2,000, series 1–2,000), for `--minutes`. Samples the server's RSS and heap
 * every `--every` seconds; prints the peak and the mean of the first and last fifth of the run.
 * The server reads CACHE_BUDGET_MB (and the other variables) from this process's environment.
 *   npm run bench:soak -- --minutes 20 ["--server-node-options=--max-old-space-size=192 --max-semi-space-size=8"]
 * (the container's V8 limits: Dockerfile's CMD)
 */
import autocannon from 'autocannon';
import { fork } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from 'pg';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '20' },
    every: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    port: { type: 'string', default: '4251' },
    // V8 options for the server, as the container's NODE_OPTIONS would give them.
    'server-node-options': { type: 'string', default: '' },
  },
});
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/adm_bench';
const COMPILED = __filename.endsWith('.js');

type Request = { path?: string };
interface MemoryStats {
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
}

async function main(): Promise<void> {
  const db = new Client({ connectionString: DATABASE_URL });
  await db.connect();
  await db.query('SELECT setseed(0.25)');
  const ids = (
    await db.query<{ imdb_id: string }>('SELECT imdb_id FROM titles ORDER BY random() LIMIT 200000')
  ).rows.map((row) => row.imdb_id);
  const words = (
    await db.query<{ word: string }>(
      `SELECT word FROM (SELECT DISTINCT lower(split_part(title, ' ', 1)) AS word FROM titles
       WHERE title ~ '^[A-Za-z]{3,}') w ORDER BY md5(word) LIMIT 500`,
    )
  ).rows.map((row) => row.word);
  await db.end();

  const mix: Array<[number, (i: number) => string]> = [
    [40, (i) => `/v1/titles/${ids[i % 5_000]}`],
    [20, (i) => `/v1/titles/${ids[i % ids.length]}`],
    [15, (i) => `/v1/search?q=${encodeURIComponent(words[i % words.length])}`],
    [10, (i) => `/v1/movies?page=${1 + (i % 50)}`],
    [10, (i) => `/v1/movies?page=${1 + ((i * 7919) % 2_000)}`],
    [5, (i) => `/v1/series?page=${1 + ((i * 104_729) % 2_000)}`],
  ];
  const slots = mix.flatMap(([weight, path]) => Array.from({ length: weight }, () => path));
  let next = 0;
  const setupRequest = (req: Request): Request => {
    const i = next++;
    return { ...req, path: slots[(i * 37) % slots.length](Math.floor(i / slots.length)) };
  };

  const child = fork(
    join(__dirname, COMPILED ? 'admission-server.js' : 'admission-server.ts'),
    ['full', values.port!],
    {
      execArgv: [
        ...(COMPILED ? [] : ['-r', 'ts-node/register/transpile-only']),
        ...values['server-node-options']!.split(' ').filter(Boolean),
      ],
      env: { ...process.env, DATABASE_URL, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    },
  );
  const key = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
    child.on(
      'message',
      (message: { type: string; key: string }) => message.type === 'ready' && resolve(message.key),
    );
  });
  const sample = () =>
    new Promise<MemoryStats>((resolve) => {
      const onMessage = (message: MemoryStats & { type: string }) => {
        if (message.type !== 'stats') return;
        child.off('message', onMessage);
        resolve(message);
      };
      child.on('message', onMessage);
      child.send({ type: 'stats' });
    });

  const started = Date.now();
  const samples: Array<{
    second: number;
    rssMb: number;
    heapUsedMb: number;
    heapTotalMb: number;
    externalMb: number;
  }> = [];
  const timer = setInterval(
    () => {
      void sample().then((memory) => {
        const mb = (bytes: number) => Math.round(bytes / 1e6);
        const point = {
          second: Math.round((Date.now() - started) / 1000),
          rssMb: mb(memory.rss),
          heapUsedMb: mb(memory.heapUsed),
          heapTotalMb: mb(memory.heapTotal),
          externalMb: mb(memory.external),
        };
        samples.push(point);
        console.error(JSON.stringify(point));
      });
    },
    Number(values.every) * 1000,
  );
  const result = await autocannon({
    url: `http://127.0.0.1:${values.port}`,
    connections: Number(values.connections),
    duration: Number(values.minutes) * 60,
    headers: { authorization: `Bearer ${key}` },
    requests: [{ setupRequest }],
  });
  clearInterval(timer);
  child.send({ type: 'stop' });

  const rss = samples.map((point) => point.rssMb);
  const fifth = Math.max(1, Math.floor(rss.length / 5));
  const mean = (numbers: number[]) => Math.round(numbers.reduce((a, b) => a + b, 0) / numbers.length);
  const statuses: Record<string, number> = {};
  for (const [status, count] of Object.entries(result.statusCodeStats ?? {})) statuses[status] = count.count;
  const report = {
    command: `npm run bench:soak -- ${process.argv.slice(2).join(' ')}`.trim(),
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, cpu: cpus()[0]?.model, node: process.version },
    minutes: Number(values.minutes),
    cacheBudgetMb: process.env.CACHE_BUDGET_MB ?? 'default',
    serverNodeOptions: values['server-node-options'],
    // glibc's malloc arenas (the container may set it): native memory beside V8's heap.
    mallocArenaMax: process.env.MALLOC_ARENA_MAX ?? 'default',
    requestsPerSecond: Math.round(result.requests.average),
    statuses,
    rssMb: {
      peak: Math.max(...rss),
      firstFifthMean: mean(rss.slice(0, fifth)),
      lastFifthMean: mean(rss.slice(-fifth)),
    },
    samples,
  };
  mkdirSync(join(__dirname, COMPILED ? '..' : 'out'), { recursive: true });
  const file = join(
    __dirname,
    COMPILED ? '..' : 'out',
    `memory-soak-${report.date.replace(/[:.]/g, '-')}.json`,
  );
  writeFileSync(file, JSON.stringify(report, null, 2));
  console.log(JSON.stringify({ ...report, samples: undefined, file }));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
