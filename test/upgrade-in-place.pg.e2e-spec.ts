import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { cliEnvironment, runCli } from './support/cli';
import { freePort } from './support/free-port';
import { ServerProcess } from './support/server-process';
import { type TestDatabase, createTestDatabase } from './support/test-database';

/**
 * An upgrade in place: a PostgreSQL database as release 2.0.0 (TypeORM 0.3) migrated it and stored a
 * key in it (test/fixtures/release-2.0.0-postgres.sql), then this build (TypeORM 1.x) on it. The
 * migrations table is TypeORM's own: the new build must read it as the old one wrote it, apply
 * nothing, and serve the old key.
 */
const FIXTURE = join(__dirname, 'fixtures', 'release-2.0.0-postgres.sql');
/** The key the release created (a throwaway database's, written in the fixture's header). */
const OLD_KEY = 'mov_live_dsEq5Z0Z_BF6YCEuTIvNjRJk1cWoTuYE4DO-hcvrW8o';
const OLD_KEY_ID = 'ecef0362-ad89-4bca-84af-014a1d9369fb';

describe("an upgrade in place from release 2.0.0's database (PostgreSQL)", () => {
  let database: TestDatabase;
  let env: NodeJS.ProcessEnv;
  let server: ServerProcess | undefined;

  beforeAll(async () => {
    database = await createTestDatabase();
    if (database.config.kind !== 'postgres') throw new Error('a PostgreSQL-only file');
    const client = new Client({ connectionString: database.config.url });
    await client.connect();
    try {
      await client.query(readFileSync(FIXTURE, 'utf8'));
    } finally {
      await client.end();
    }
    env = cliEnvironment(database.config);
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    await database?.drop();
  });

  it('applies no migration: the old migrations table reads as up to date', async () => {
    const migrate = await runCli(['db:migrate'], env);
    expect(migrate).toMatchObject({ code: 0, stderr: '' });
    expect(migrate.stdout.trim()).toBe('Database schema is up to date.');
  });

  it("lists the release's key and serves it; /health answers 200", async () => {
    const listed = await runCli(['keys:list', '--json'], env);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(OLD_KEY_ID);
    server = await ServerProcess.start(await freePort(), { DATABASE_URL: env.DATABASE_URL });
    expect((await server.get('/health')).status).toBe(200);
    expect((await server.get('/v1/usage', { Authorization: `Bearer ${OLD_KEY}` })).status).toBe(200);
    expect((await server.get('/v1/usage', { Authorization: 'Bearer mov_live_unknown' })).status).toBe(401);
  });
});
