import autocannon from 'autocannon';
import { fork } from 'node:child_process';
import { Client } from 'pg';
/**
 * Server RSS and throughput of one checkout's full app under title lookups: a hot id, a crawl over
 * 200,000 sampled ids (twice), a 5,000-id working set; 15 s each, 50 connections. Run it once per
 * checkout (e.g. this branch and an exported copy of main sharing its node_modules) to compare.
 *   BENCH_DATABASE_URL=… npx ts-node --transpile-only bench/lookup-memory-ab.ts <checkout dir> <port>
 */
const URL_DB = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/bench_main_1m3';
async function main() {
  const dir = process.argv[2];
  const port = Number(process.argv[3]);
  const db = new Client({ connectionString: URL_DB });
  await db.connect();
  await db.query('SELECT setseed(0.42)');
  const ids = (
    await db.query<{ imdb_id: string }>('SELECT imdb_id FROM titles ORDER BY random() LIMIT 200000')
  ).rows.map((r) => `/v1/titles/${r.imdb_id}`);
  await db.end();
  const child = fork(`${dir}/bench/admission-server.ts`, ['full', String(port)], {
    cwd: dir,
    execArgv: ['-r', 'ts-node/register/transpile-only'],
    env: { ...process.env, DATABASE_URL: URL_DB, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const key: string = await new Promise((resolve) =>
    child.on('message', (m: { type: string; key: string }) => m.type === 'ready' && resolve(m.key)),
  );
  const rss = () =>
    new Promise<number>((resolve) => {
      const on = (m: { type: string; rss: number }) => {
        if (m.type === 'stats') {
          child.off('message', on);
          resolve(Math.round(m.rss / 1e6));
        }
      };
      child.on('message', on);
      child.send({ type: 'stats' });
    });
  const out: Record<string, number> = { start: await rss() };
  let i = 0;
  const run = async (name: string, n: number) => {
    const r = await autocannon({
      url: `http://127.0.0.1:${port}${ids[0]}`,
      connections: 50,
      duration: 15,
      headers: { authorization: `Bearer ${key}` },
      requests: [{ setupRequest: (req: { path?: string }) => ({ ...req, path: ids[i++ % n] }) }],
    });
    out[name] = await rss();
    out[name + 'Rps'] = Math.round(r.requests.average);
  };
  await run('hot1', 1);
  await run('wide1', 200000);
  await run('hot2', 1);
  await run('wide2', 200000);
  await run('spread', 5000);
  console.log(JSON.stringify({ dir, ...out }));
  child.send({ type: 'stop' });
}
main().catch((e) => {
  console.error(e);
  process.exit(1);
});
