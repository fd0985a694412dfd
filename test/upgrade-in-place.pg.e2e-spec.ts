import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { MIGRATIONS } from '../migrations';
import { cliEnvironment, runCli } from './support/cli';
import { freePort } from './support/free-port';
import { ServerProcess } from './support/server-process';
import { type TestDatabase, createTestDatabase } from './support/test-database';

/**
 * An upgrade in place: a PostgreSQL database as release 2.0.0 (TypeORM 0.3) migrated it and stored a
 * key in it (test/fixtures/release-2.0.0-postgres.sql), then this build (TypeORM 1.x) on it. The
 * migrations table is TypeORM's own: the new build must read it as the old one wrote it, apply
 * exactly the migrations the release did not have, and serve the old key.
 */
const FIXTURE = join(__dirname, 'fixtures', 'release-2.0.0-postgres.sql');
/** The key the release created (a throwaway database's, written in the fixture's header). */
const OLD_KEY = 'mov_live_1t7rTDszj-_Mm-oKbw9-4qRZ6KkrQYjEreYwVE2TF7E';
const OLD_KEY_ID = 'a2345dac-26be-433f-b0f5-beebc49aef01';

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

  it('applies exactly the migrations added since the release: the old migrations table reads as it was written', async () => {
    const released = [
      ...readFileSync(FIXTURE, 'utf8').matchAll(/schema_migrations VALUES \(\d+, \d+, '(\w+)'\)/g),
    ].map((match) => match[1]);
    expect(released).toHaveLength(6);
    const added = MIGRATIONS.map((migration) => migration.name).filter((name) => !released.includes(name));
    expect(added.length).toBeGreaterThan(0);
    const migrate = await runCli(['db:migrate'], env);
    expect(migrate).toMatchObject({ code: 0, stderr: '' });
    expect(migrate.stdout.trim()).toBe(`Applied ${added.length} migration(s): ${added.join(', ')}`);
    expect((await runCli(['db:migrate'], env)).stdout.trim()).toBe('Database schema is up to date.');
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

  it("records the release's key's use on its monthly counter, which had no such column", async () => {
    const before = JSON.parse((await runCli(['keys:list', '--json'], env)).stdout) as Array<
      Record<string, unknown>
    >;
    expect(before.find((key) => key.id === OLD_KEY_ID)).toMatchObject({ month_used: 0, last_used_on: null });
    server ??= await ServerProcess.start(await freePort(), { DATABASE_URL: env.DATABASE_URL });
    expect((await server.get('/v1/movies?limit=1', { Authorization: `Bearer ${OLD_KEY}` })).status).toBe(200);
    const after = JSON.parse((await runCli(['keys:list', '--json'], env)).stdout) as Array<
      Record<string, unknown>
    >;
    expect(after.find((key) => key.id === OLD_KEY_ID)).toMatchObject({
      month_used: 1,
      last_used_on: new Date().toISOString().slice(0, 10),
    });
  });
});
