/**
 * A silent network partition between the built server and PostgreSQL (packets held, connections
 * neither refused nor reset), through a loopback proxy: how long each route takes to answer while
 * it lasts, and how long after it heals until every route answers 200 again.
 *   npm run build && npx ts-node --transpile-only bench/fault-partition.ts --seconds 45
 * Uses a throwaway database `res_bench_partition` on TEST_POSTGRES_URL's server (dropped after),
 * ports 4390 (server) and 4391 (proxy). Loopback only; stops by itself.
 */
import { parseArgs } from 'node:util';
import { Client } from 'pg';
import { ServerProcess } from '../test/support/server-process';
import { SERVED_IDS, seedServedCatalog } from '../test/support/served-catalog';
import { TcpProxy } from '../test/support/tcp-proxy';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '45' } } });
const ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const NAME = 'res_bench_partition';
const ROUTES = ['/health', `/v1/titles/${SERVED_IDS[1]}`, '/v1/movies?limit=5', '/v1/search?q=served'];

async function admin(sql: string): Promise<void> {
  const client = new Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

async function main(): Promise<void> {
  await admin(`DROP DATABASE IF EXISTS ${NAME} WITH (FORCE)`);
  await admin(`CREATE DATABASE ${NAME}`);
  const direct = new URL(ADMIN_URL);
  direct.pathname = `/${NAME}`;
  const proxy = new TcpProxy(4391, { host: direct.hostname, port: Number(direct.port || 5432) });
  let server: ServerProcess | undefined;
  try {
    const { key } = await seedServedCatalog({ kind: 'postgres', url: direct.toString() });
    const auth = { Authorization: `Bearer ${key}` };
    await proxy.restore();
    const proxied = new URL(direct.toString());
    proxied.port = '4391';
    server = await ServerProcess.start(4390, { DATABASE_URL: proxied.toString() });
    const s = server;
    const timed = async (path: string) => {
      const started = Date.now();
      const answer = await s.get(path, auth).catch((error: Error) => ({ status: error.message }));
      return { path, status: answer.status, ms: Date.now() - started };
    };
    // Warm the pool: several connections open and idle.
    for (let i = 0; i < 5; i++) await Promise.all(ROUTES.map(timed));

    proxy.partition();
    const partitionedAt = Date.now();
    console.log('partition: every route requested once, concurrently');
    for (const result of await Promise.all(ROUTES.map(timed)))
      console.log(`  ${result.path}: ${result.status} after ${result.ms} ms`);
    console.log('partition: every route again (the pool now has to connect anew)');
    for (const result of await Promise.all(ROUTES.map(timed)))
      console.log(`  ${result.path}: ${result.status} after ${result.ms} ms`);
    const remaining = Number(values.seconds) * 1000 - (Date.now() - partitionedAt);
    if (remaining > 0) await new Promise((resolve) => setTimeout(resolve, remaining));

    proxy.heal();
    const healedAt = Date.now();
    for (;;) {
      const results = await Promise.all(ROUTES.map(timed));
      if (results.every((result) => result.status === 200)) break;
      if (Date.now() - healedAt > 60_000) throw new Error('no recovery within 60 s');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    console.log(`healed: every route 200 again after ${Date.now() - healedAt} ms; process alive: ${s.alive}`);
  } finally {
    await server?.stop();
    await proxy.cut();
    await admin(`DROP DATABASE IF EXISTS ${NAME} WITH (FORCE)`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
