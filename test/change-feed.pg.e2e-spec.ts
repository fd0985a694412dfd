import { Client } from 'pg';
import { CatalogStateRepository } from '../src/catalog/catalog-state.repository';
import { CHANGE_CHANNEL, ChangeFeed } from '../src/database/change-feed';
import { type CliResult, cliEnvironment, runCli } from './support/cli';
import { freePort } from './support/free-port';
import { FixtureFiles, basicsRow, ratingsRow } from './support/imdb-files';
import { PgBouncer } from './support/pgbouncer';
import { ServerProcess } from './support/server-process';
import { type TestApp, CATALOG_SERVED_WITHIN_MS, createTestApp } from './support/test-app';
import { type TestDatabase, createTestDatabase } from './support/test-database';
import { eventually, sleep } from './support/timing';

/** A one-title catalog file named by its version, loaded by the CLI (another process). */
function ingest(files: FixtureFiles, env: NodeJS.ProcessEnv, version: string): Promise<CliResult> {
  const basics = files.basics(`${version}.tsv`, [basicsRow('tt7000001', 'movie', `Feed ${version}`)]);
  const ratings = files.ratings(`${version}-ratings.tsv`, [ratingsRow('tt7000001', '7.0', 10)]);
  return runCli(
    ['catalog:ingest', '--basics', basics, '--ratings', ratings, '--catalog-version', version],
    env,
  );
}

async function createKey(env: NodeJS.ProcessEnv): Promise<{ id: string; key: string }> {
  const created = await runCli(
    ['keys:create', '--name', 'feed', '--rpm', '100000', '--monthly-quota', '1000000', '--json'],
    env,
  );
  expect(created).toMatchObject({ code: 0, stderr: '' });
  return JSON.parse(created.stdout) as { id: string; key: string };
}

/**
 * With a change feed (LISTEN/NOTIFY on a session of its own) a process learns of another
 * process's catalog load and key changes when they commit, and polls only as a safety net.
 */
describe('the change feed on PostgreSQL', () => {
  let t: TestApp;
  let files: FixtureFiles;
  let env: NodeJS.ProcessEnv;
  /** This test's own listener: it hears each commit when the servers' feeds do. */
  let listener: Client;
  const notices: { payload: string; at: number }[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    files = new FixtureFiles();
    env = cliEnvironment(t.config.database);
    if (t.config.database.kind !== 'postgres') throw new Error('PostgreSQL only');
    listener = new Client({ connectionString: t.config.database.url });
    await listener.connect();
    listener.on('notification', (notice) => notices.push({ payload: notice.payload ?? '', at: Date.now() }));
    await listener.query(`LISTEN ${CHANGE_CHANNEL}`);
    const feed = t.app.get(ChangeFeed);
    await eventually(async () => feed.live, 5_000, 20);
  });
  afterAll(async () => {
    await listener.end();
    await t.close();
    files.cleanup();
  });

  it('reads the catalog state only as a safety net while the feed is live', async () => {
    const reads = jest.spyOn(t.app.get(CatalogStateRepository), 'read');
    try {
      await sleep(3_000);
      // Without a feed: three polls in 3 s. With it: the safety net, every 5 s.
      expect(reads.mock.calls.length).toBeLessThanOrEqual(1);
    } finally {
      reads.mockRestore();
    }
  });

  it("serves another process's new catalog within a second of its commit", async () => {
    for (const version of ['feed-1', 'feed-2']) {
      const heard = notices.length;
      const load = ingest(files, env, version);
      await eventually(async () => notices.slice(heard).some((n) => n.payload === 'catalog'), 30_000, 10);
      const committedAt = notices.slice(heard).find((n) => n.payload === 'catalog')!.at;
      await t.servesCatalog(version, CATALOG_SERVED_WITHIN_MS - (Date.now() - committedAt));
      expect((await load).code).toBe(0);
    }
  });

  it('polls at once when its session is killed, then listens again', async () => {
    const feed = t.app.get(ChangeFeed);
    const { rows } = await listener.query(
      `SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity
        WHERE application_name = 'catalog-api-feed' AND datname = current_database()`,
    );
    expect(rows).toEqual([{ ended: true }]);
    await eventually(async () => !feed.live, 2_000, 10);
    const load = ingest(files, env, 'feed-polled');
    expect((await load).code).toBe(0);
    await t.servesCatalog('feed-polled');
    await eventually(async () => feed.live, 5_000, 20);
  });

  it('refuses a key the CLI disabled within a second, and accepts it again when enabled', async () => {
    const { id, key } = await createKey(env);
    const status = async () =>
      (await t.http().get('/v1/titles/tt7000001').set('Authorization', `Bearer ${key}`)).status;
    expect(await status()).toBe(200);
    for (const [command, expected] of [
      ['keys:disable', 403],
      ['keys:enable', 200],
    ] as const) {
      expect(await runCli([command, id], env)).toMatchObject({ code: 0 });
      // The safety net alone would take up to 7 s.
      await eventually(async () => (await status()) === expected, 1_000, 20);
    }
  });
});

/**
 * Behind PgBouncer in transaction mode a LISTEN is silently useless: without DATABASE_DIRECT_URL the
 * server says so once and keeps polling, and still serves changes within the contract's bounds.
 */
describe('no change feed behind a transaction pooler', () => {
  let database: TestDatabase;
  let bouncer: PgBouncer;
  let server: ServerProcess;
  let files: FixtureFiles;
  let metricsPort: number;
  let directUrl: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    if (database.config.kind !== 'postgres') throw new Error('PostgreSQL only');
    directUrl = database.config.url;
    bouncer = await PgBouncer.inFrontOf(directUrl);
    files = new FixtureFiles();
    metricsPort = await freePort();
    server = await ServerProcess.start(await freePort(), {
      DATABASE_URL: bouncer.url(directUrl),
      METRICS_PORT: String(metricsPort),
      SHUTDOWN_GRACE_MS: '0',
    });
  });
  afterAll(async () => {
    await server?.stop();
    await bouncer?.stop();
    await database?.drop();
    files?.cleanup();
  });

  it('says once that the feed needs DATABASE_DIRECT_URL, polls, and serves changes in time', async () => {
    await eventually(async () => server.logs().includes('LISTEN/NOTIFY is not delivered'), 5_000, 50);
    expect(server.logs()).toContain('set DATABASE_DIRECT_URL');
    expect(server.logs().match(/LISTEN\/NOTIFY is not delivered/g)).toHaveLength(1);
    const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    expect(metrics).toMatch(/^db_change_feed_live 0$/m);

    // The CLI as an operator runs it behind the pooler: its load's session on the direct URL.
    const env = {
      ...cliEnvironment({ kind: 'postgres', url: bouncer.url(directUrl) }),
      DATABASE_DIRECT_URL: directUrl,
    };
    expect((await ingest(files, env, 'pooled-1')).code).toBe(0);
    await eventually(
      async () =>
        JSON.parse((await server.get('/health')).body).data[0].catalog.catalog_version === 'pooled-1',
      CATALOG_SERVED_WITHIN_MS,
      20,
    );

    const { id, key } = await createKey(env);
    const status = async () =>
      (await server.get('/v1/titles/tt7000001', { Authorization: `Bearer ${key}` })).status;
    expect(await status()).toBe(200);
    expect(await runCli(['keys:disable', id], env)).toMatchObject({ code: 0 });
    // The keys' marker comes with each state poll, so within a poll and two reads: well inside the
    // contract's 10 s.
    await eventually(async () => (await status()) === 403, 1_500, 50);
    expect(server.logs()).not.toContain('prepared statement');
  });
});
