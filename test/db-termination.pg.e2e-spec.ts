import { Agent } from 'node:http';
import { Client } from 'pg';
import { notOkOrInternalError } from './support/answers';
import { ServerProcess } from './support/server-process';
import { SERVED_IDS, seedServedCatalog } from './support/served-catalog';
import { type TestDatabase, createTestDatabase } from './support/test-database';
import { sleep } from './support/timing';

const PORT = 4310;
const TERMINATIONS = 50;
const CLIENTS = 16;
const TERMINATE_SQL = `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
  WHERE datname = current_database() AND pid <> pg_backend_pid()`;

/**
 * A failover, pg_terminate_backend or network reset must never end the process. The
 * built server runs in a child process, so a crash shows as its exit.
 */
describe('terminated database connections under load', () => {
  let database: TestDatabase;
  let server: ServerProcess;
  let auth: Record<string, string>;

  beforeAll(async () => {
    database = await createTestDatabase();
    if (database.config.kind !== 'postgres') throw new Error('PostgreSQL only');
    const { key } = await seedServedCatalog(database.config);
    auth = { Authorization: `Bearer ${key}` };
    server = await ServerProcess.start(PORT, { DATABASE_URL: database.config.url });
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await database?.drop();
  });

  it(`stays up through ${TERMINATIONS} terminations of every backend, answering 200 or 500 and recovering`, async () => {
    const routes = [
      `/v1/titles/${SERVED_IDS[3]}`,
      '/v1/search?q=served+title',
      '/v1/movies?limit=5',
      '/v1/series?page=2&limit=3',
      '/health',
    ];
    const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS });
    const violations: string[] = [];
    const statuses = new Map<number, number>();
    let running = true;
    const worker = async (offset: number) => {
      for (let i = offset; running; i++) {
        const path = routes[i % routes.length];
        try {
          const answer = await server.get(path, auth, agent);
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
          const problem = notOkOrInternalError(answer);
          if (problem) violations.push(`${path}: ${problem}`);
        } catch (error) {
          violations.push(`${path}: ${(error as Error).message}`);
          await sleep(50);
        }
      }
    };
    const workers = Array.from({ length: CLIENTS }, (_, offset) => worker(offset));

    const admin = new Client({ connectionString: (database.config as { url: string }).url });
    await admin.connect();
    const recoveries: number[] = [];
    let terminated = 0;
    try {
      for (let round = 0; round < TERMINATIONS && server.alive; round++) {
        await sleep(150);
        const [{ n }] = (await admin.query<{ n: number }>(TERMINATE_SQL)).rows;
        terminated += n;
        const started = Date.now();
        while (server.alive && Date.now() - started < 10_000) {
          const answer = await server.get('/v1/movies?limit=1', auth).catch(() => null);
          if (answer?.status === 200) break;
        }
        recoveries.push(Date.now() - started);
      }
    } finally {
      running = false;
      await Promise.all(workers);
      agent.destroy();
      await admin.end();
    }

    const answered = [...statuses.values()].reduce((sum, n) => sum + n, 0);
    console.info(
      `terminations: ${recoveries.length} rounds, ${terminated} backends; answers: ${answered} ` +
        `(${JSON.stringify(Object.fromEntries(statuses))}); slowest recovery ${Math.max(...recoveries)} ms`,
    );
    expect(server.alive).toBe(true);
    expect(server.logs()).not.toContain('Unhandled');
    expect(violations).toEqual([]);
    expect(recoveries).toHaveLength(TERMINATIONS);
    expect(terminated).toBeGreaterThanOrEqual(TERMINATIONS);
    expect(Math.max(...recoveries)).toBeLessThan(1_000);
    expect(statuses.get(200)).toBeGreaterThan(0);
  });
});
