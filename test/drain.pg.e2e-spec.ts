import { Agent } from 'node:http';
import { Client } from 'pg';
import { ServerProcess } from './support/server-process';
import { SERVED_IDS, seedServedCatalog } from './support/served-catalog';
import { type TestDatabase, createTestDatabase } from './support/test-database';
import { REQUEST_STATEMENT_TIMEOUT_MS } from '../src/database/deadline-query';
import { eventually } from './support/timing';

const PORT = 4320;
/**
 * The slow request waits through the grace period and must still finish within its statement
 * deadline (2 s): at 1.5 s the two together left it ~0.1 s, and a loaded machine got a 500.
 */
const GRACE_MS = REQUEST_STATEMENT_TIMEOUT_MS / 2;

/**
 * The graceful drain of a built server on SIGTERM. A slow request is made by holding a
 * lock on the titles table from another session (PostgreSQL only).
 */
describe('graceful drain on SIGTERM', () => {
  let database: TestDatabase;
  let url: string;
  let auth: Record<string, string>;

  beforeAll(async () => {
    database = await createTestDatabase();
    if (database.config.kind !== 'postgres') throw new Error('PostgreSQL only');
    url = database.config.url;
    auth = { Authorization: `Bearer ${(await seedServedCatalog(database.config)).key}` };
  }, 120_000);
  afterAll(() => database?.drop());

  it('fails /health at once, serves through the grace period, finishes the slow request and exits 0', async () => {
    const server = await ServerProcess.start(PORT, {
      DATABASE_URL: url,
      SHUTDOWN_GRACE_MS: String(GRACE_MS),
      LOG_LEVEL: 'info',
    });
    const locker = new Client({ connectionString: url });
    await locker.connect();
    try {
      expect((await server.get('/health')).status).toBe(200);
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE titles IN ACCESS EXCLUSIVE MODE');
      const slow = server.get(`/v1/titles/${SERVED_IDS[0]}`, auth);
      // SIGTERM once the lookup waits for the lock, not a guessed while after.
      await eventually(
        async () =>
          (
            await locker.query<{ waiting: number }>(
              "SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()",
            )
          ).rows[0].waiting > 0,
        5_000,
        20,
      );

      server.child.kill('SIGTERM');
      await eventually(async () => server.logs().includes('SIGTERM: draining'), 5_000, 20);
      const health = await server.get('/health');
      expect(health.status).toBe(500);
      expect(JSON.parse(health.body).error).toMatchObject({
        code: 'INTERNAL_ERROR',
        request_id: health.headers['x-request-id'],
      });
      // New connections are still served during the grace period (this one needs no table lock),
      // and each answer closes its connection.
      const served = await server.get('/v1/titles/%ZZ', auth);
      expect(served.status).toBe(400);
      expect(served.headers.connection).toBe('close');

      // After the grace period the listener is closed while the slow request is still running.
      await eventually(
        () =>
          server.get('/health').then(
            () => false,
            (error: NodeJS.ErrnoException) => error.code === 'ECONNREFUSED',
          ),
        GRACE_MS + 5_000,
        100,
      );
      expect(server.alive).toBe(true);
      await locker.query('COMMIT');
      const answer = await slow;
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body).data[0].imdb_id).toBe(SERVED_IDS[0]);
      expect(await server.exited).toEqual({ code: 0, signal: null });
      expect(server.logs()).toContain('Stopped serving; closing the database');
      // The drain is expected; its refused probes are not logged as failures.
      const lines = server
        .logs()
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { level: number; msg: string });
      expect(lines.filter((line) => line.level >= 50)).toEqual([]);
      expect(lines.filter((line) => /draining|Stopped serving/.test(line.msg))).toHaveLength(2);
    } finally {
      await locker.end().catch(() => undefined);
      await server.stop('SIGKILL');
    }
  });

  it('exits at once on a second signal', async () => {
    const server = await ServerProcess.start(PORT, { DATABASE_URL: url, SHUTDOWN_GRACE_MS: '60000' });
    // A client connected (kept alive): without one, SIGTERM stops at once instead of draining.
    const client = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      expect((await server.get('/health', {}, client)).status).toBe(200);
      server.child.kill('SIGTERM');
      await eventually(async () => (await server.get('/health')).status === 500, 5_000, 20);
      server.child.kill('SIGTERM');
      expect(await server.exited).toEqual({ code: 1, signal: null });
    } finally {
      client.destroy();
      await server.stop('SIGKILL');
    }
  });
});
