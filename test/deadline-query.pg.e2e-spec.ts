import { Pool } from 'pg';
import {
  REQUEST_DEADLINE,
  REQUEST_QUERY_TIMEOUT_MS,
  REQUEST_STATEMENT_TIMEOUT_MS,
  queryWithDeadline,
} from '../src/database/deadline-query';
import { type TestDatabase, createTestDatabase } from './support/test-database';

/**
 * A request statement's deadline is set in the same round trip and lasts for that
 * statement only (nothing stays on the server connection a transaction pooler would hand on).
 */
describe('queryWithDeadline on PostgreSQL', () => {
  let database: TestDatabase;
  let pool: Pool;

  beforeAll(async () => {
    database = await createTestDatabase();
    if (database.config.kind !== 'postgres') throw new Error('PostgreSQL only');
    // One connection: every statement below runs on the same server session.
    pool = new Pool({ connectionString: database.config.url, max: 1 });
    // An idle session's error reaches the pool, not a query: during the tests it is a failure.
    // pool.end() resolves before its sessions have closed, so the teardown's DROP DATABASE ... WITH
    // (FORCE) may end one whose goodbye is still on its way (FATAL 57P01): that one is expected.
    pool.on('error', (error: Error & { code?: string }) => {
      if (!(tearingDown && error.code === '57P01')) throw error;
    });
  });
  let tearingDown = false;
  afterAll(async () => {
    tearingDown = true;
    await pool?.end();
    await database?.drop();
  });

  it('answers the statement, with its parameters, under the deadline, and leaves the session as it was', async () => {
    const before = (await pool.query<{ t: string }>("SELECT current_setting('statement_timeout') AS t"))
      .rows[0].t;
    const rows = await queryWithDeadline<{ a: number; t: string }>(
      pool,
      'SELECT $1::int AS a, current_setting($2) AS t',
      [5, 'statement_timeout'],
    );
    expect(rows).toEqual([{ a: 5, t: `${REQUEST_STATEMENT_TIMEOUT_MS / 1000}s` }]);
    expect((await queryWithDeadline(pool, 'SELECT 1 AS one', [])).length).toBe(1);
    const after = (await pool.query<{ t: string }>("SELECT current_setting('statement_timeout') AS t"))
      .rows[0].t;
    expect(after).toBe(before);
  });

  it('is cancelled by the server at the statement deadline, and the connection serves the next one', async () => {
    // The client's own deadline is out of the way here (the next test has it): with the usual 500 ms
    // between the two, a test process starved of CPU could see its timer fire before it reads the
    // server's cancellation, which says nothing about the server.
    const serverSide = { ...REQUEST_DEADLINE, queryTimeoutMs: 30_000 };
    const started = Date.now();
    await expect(queryWithDeadline(pool, 'SELECT pg_sleep(10)', [], serverSide)).rejects.toMatchObject({
      code: '57014',
    });
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(REQUEST_STATEMENT_TIMEOUT_MS - 50);
    expect(took).toBeLessThan(10_000);
    expect(REQUEST_STATEMENT_TIMEOUT_MS).toBeLessThan(REQUEST_QUERY_TIMEOUT_MS);
    expect(await queryWithDeadline(pool, 'SELECT 2 AS two', [])).toEqual([{ two: 2 }]);
  });

  it('gives up on the client side when the server does not answer in time', async () => {
    const started = Date.now();
    await expect(
      queryWithDeadline(pool, 'SELECT pg_sleep(3)', [], { statementTimeoutMs: 10_000, queryTimeoutMs: 300 }),
    ).rejects.toThrow('Query read timeout');
    // Before the server could have answered.
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('reports an SQL error as the statement error', async () => {
    await expect(queryWithDeadline(pool, 'SELECT nonsense', [])).rejects.toThrow(
      'column "nonsense" does not exist',
    );
  });
});
