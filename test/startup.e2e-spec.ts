import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { type Server, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from './support/cli';
import { cleanEnvironment, runServerToExit, startServer } from './support/startup-process';
import { TEST_ENGINE, type TestDatabase, createTestDatabase } from './support/test-database';
import { eventually } from './support/timing';

const ADMIN_URL = new URL(process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');

/** A URL on the test server with another user, password or database. */
function serverUrl(changes: { user?: string; password?: string; database: string }): string {
  const url = new URL(ADMIN_URL.toString());
  if (changes.user) url.username = changes.user;
  if (changes.password) url.password = changes.password;
  url.pathname = `/${changes.database}`;
  return url.toString();
}

/** Exactly one stderr line, `error: ` and the variable first, no stack trace, non-zero exit. */
function expectOneLineNaming(result: { code: number | null; stderr: string }, variable: string): void {
  expect(result.code).not.toBe(0);
  expect(result.code).not.toBeNull();
  const lines = result.stderr.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(new RegExp(`^error: (Invalid configuration: )?${variable}\\b`));
}

/**
 * Every start-up failure an operator can cause: `node dist/main.js` (and the CLI where it applies)
 * ends with one line naming the variable and the cause.
 */
describe('start-up failures', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'catalog-startup-'));
  const aFile = join(scratch, 'a-file');
  writeFileSync(aFile, 'not a folder');
  const refused = 'postgres://catalog:sekret@127.0.0.1:1/catalog';
  let unwritable: string;
  let occupied: Server;
  let occupiedPort: number;

  beforeAll(async () => {
    // Root writes anywhere it likes; /sys refuses new folders to everyone.
    if (process.getuid?.() === 0) {
      unwritable = '/sys/catalog-api-test';
    } else {
      unwritable = mkdtempSync(join(scratch, 'read-only-'));
      chmodSync(unwritable, 0o555);
    }
    occupied = createServer();
    await new Promise<void>((resolve) => occupied.listen(0, '127.0.0.1', resolve));
    occupiedPort = (occupied.address() as { port: number }).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => occupied.close(resolve));
    rmSync(scratch, { recursive: true, force: true });
  });

  const cases: [string, () => NodeJS.ProcessEnv, string, RegExp][] = [
    [
      'a closed port',
      () => ({ DATABASE_URL: refused }),
      'DATABASE_URL',
      /connection refused at 127\.0\.0\.1:1/,
    ],
    [
      'a database that does not exist',
      () => ({ DATABASE_URL: serverUrl({ database: 'catalog_no_such_database' }) }),
      'DATABASE_URL',
      /database "catalog_no_such_database" does not exist/,
    ],
    [
      'bad credentials',
      () => ({
        DATABASE_URL: serverUrl({ user: 'catalog_no_such_role', password: 'sekret', database: 'postgres' }),
      }),
      'DATABASE_URL',
      /refused the credentials/,
    ],
    [
      'an unresolvable database host',
      () => ({ DATABASE_URL: 'postgres://catalog@catalog-db.invalid:5432/catalog' }),
      'DATABASE_URL',
      /catalog-db\.invalid cannot be resolved/,
    ],
    [
      'a DATA_DIR that is a file',
      () => ({ DATA_DIR: aFile }),
      'DATA_DIR',
      /a file stands where a folder should be/,
    ],
    ['an unwritable DATA_DIR', () => ({ DATA_DIR: unwritable }), 'DATA_DIR', /not writable|read-only/],
    [
      'an unreachable REDIS_URL',
      () => ({ DATABASE_URL: refused, REDIS_URL: 'redis://127.0.0.1:1' }),
      'REDIS_URL',
      /connection refused at 127\.0\.0\.1:1/,
    ],
    [
      'an unresolvable REDIS_URL host',
      () => ({ DATABASE_URL: refused, REDIS_URL: 'redis://catalog-redis.invalid:6379' }),
      'REDIS_URL',
      /cannot be resolved/,
    ],
    ['bad configuration', () => ({ PORT: 'eighty' }), 'PORT', /PORT must be an integer/],
    [
      'a DATABASE_READ_URL that is not a list of PostgreSQL URLs',
      () => ({
        DATABASE_URL: refused,
        DATABASE_READ_URL: 'postgres://catalog@replica:5432/catalog,mysql://x',
      }),
      'DATABASE_READ_URL',
      /must be one or more postgres:\/\/ or postgresql:\/\/ URLs/,
    ],
    [
      'DATABASE_READ_URL with the embedded database',
      () => ({ DATABASE_READ_URL: 'postgres://catalog@replica:5432/catalog' }),
      'DATABASE_READ_URL',
      /needs DATABASE_URL/,
    ],
    [
      'the container without DATABASE_URL',
      () => ({ CATALOG_API_REQUIRE_DATABASE_URL: '1' }),
      'DATABASE_URL',
      /DATABASE_URL must be set/,
    ],
  ];

  it.each(cases)(
    'the server refuses %s with one line naming the variable',
    async (_case, env, variable, cause) => {
      const result = await runServerToExit({ LOG_LEVEL: 'info', ...env() });
      expectOneLineNaming(result, variable);
      expect(result.stderr).toMatch(cause);
      expect(result.stderr).not.toContain('sekret');
      // Nothing reached stdout either: no framework banner before the logger exists.
      expect(result.stdout).toBe('');
    },
  );

  it.each(cases.filter(([, , variable]) => variable !== 'REDIS_URL'))(
    'the CLI refuses %s with one line naming the variable',
    async (_case, env, variable, cause) => {
      const result = await runCli(['keys:list'], cleanEnvironment(env()));
      expectOneLineNaming(result, variable);
      expect(result.stderr).toMatch(cause);
      expect(result.stdout).toBe('');
    },
  );

  describe('once the database is fine', () => {
    let database: TestDatabase;
    const databaseEnv = (): NodeJS.ProcessEnv =>
      database.config.kind === 'postgres'
        ? { DATABASE_URL: database.config.url }
        : { DATA_DIR: database.config.dataDir };

    beforeAll(async () => {
      if (TEST_ENGINE === 'embedded') {
        const dataDir = mkdtempSync(join(tmpdir(), 'catalog-startup-db-'));
        database = {
          config: { kind: 'embedded', dataDir },
          drop: async () => rmSync(dataDir, { recursive: true, force: true }),
        };
      } else {
        database = await createTestDatabase();
      }
    });
    afterAll(() => database.drop());

    it('refuses a PORT in use with one line naming it', async () => {
      const result = await runServerToExit({
        ...databaseEnv(),
        HOST: '127.0.0.1',
        PORT: String(occupiedPort),
      });
      expectOneLineNaming(result, 'PORT');
      expect(result.stderr).toContain(`127.0.0.1:${occupiedPort} is already in use`);
      // Not Nest's start-up lines, nor its own JSON copy of the listen error, before it.
      expect(result.stdout).toBe('');
    });

    it('refuses an unresolvable HOST with one line naming it', async () => {
      const result = await runServerToExit({ ...databaseEnv(), HOST: 'catalog-host.invalid', PORT: '0' });
      expectOneLineNaming(result, 'HOST');
      expect(result.stderr).toContain('cannot be resolved');
      expect(result.stdout).toBe('');
    });

    it('says where it listens, which database and which catalog, and what is missing', async () => {
      // The embedded case is a first start: a DATA_DIR of its own that no other test has opened.
      const firstStartDir = mkdtempSync(join(scratch, 'first-start-'));
      const env = TEST_ENGINE === 'embedded' ? { DATA_DIR: firstStartDir } : databaseEnv();
      const server = await startServer({ ...env, LOG_LEVEL: 'info' });
      try {
        const health = (await (await fetch(`${server.url}/health`)).json()) as {
          data: { catalog: { catalog_version: string | null; title_count: number } }[];
        };
        let requests = 1;
        const messages = server.logMessages();
        const listening = messages.find((message) => message.startsWith('Listening on '));
        if (TEST_ENGINE === 'embedded') {
          // The first start from an empty DATA_DIR: the prebuilt sample catalog and a new key.
          expect(health.data[0].catalog).toMatchObject({ catalog_version: 'sample' });
          expect(health.data[0].catalog.title_count).toBeGreaterThan(300);
          expect(listening).toMatch(/; database embedded PGlite in .+; catalog sample \(\d+ titles\)$/);
          // The key is for a person: on stderr, so stdout stays JSON lines (`npm start | jq`).
          const key = /mov_live_[A-Za-z0-9_-]{43}/.exec(server.stderr())?.[0];
          expect(server.stderr()).toBe(
            '\nDevelopment API key (shown once; 600 requests/minute, 1000000 a month):\n' +
              `  ${key}\nTry: curl -H "Authorization: Bearer ${key}" ` +
              `'http://localhost:${new URL(server.url).port}/v1/search?q=the'\n\n`,
          );
          expect(server.stdout()).not.toContain(key);
          const search = await fetch(`${server.url}/v1/search?q=the`, {
            headers: { authorization: `Bearer ${key}` },
          });
          expect(search.status).toBe(200);
          requests++;
          expect(messages.filter((message) => message.includes('dist/cli.js'))).toEqual([]);
        } else {
          expect(health.data[0].catalog).toMatchObject({ catalog_version: null, title_count: 0 });
          const url = new URL(database.config.kind === 'postgres' ? database.config.url : '');
          expect(listening).toBe(
            `Listening on ${server.url}; database postgres://${url.host}${url.pathname}; no catalog`,
          );
          expect(messages).toContainEqual(
            expect.stringContaining(
              'The catalog is empty; load one with: node dist/cli.js catalog:ingest --basics',
            ),
          );
          expect(messages).toContainEqual(
            expect.stringContaining(
              'No API key exists yet; create one with: node dist/cli.js keys:create --name',
            ),
          );
        }
        if (TEST_ENGINE !== 'embedded') expect(server.stderr()).toBe('');
        // A request's access line is written once its answer has been sent, and the change feed
        // says it listens once its session is up: both come after the start, so wait for them.
        const startLines: [string, RegExp][] =
          TEST_ENGINE === 'embedded'
            ? [
                ['DevelopmentKey', /^Created a development API key/],
                ['Startup', /^Listening on /],
              ]
            : [
                ['Startup', /^Listening on /],
                ['Startup', /^The catalog is empty; /],
                ['Startup', /^No API key exists yet; /],
                ['ChangeFeed', /^Listening for catalog and key changes on /],
              ];
        // Whole lines only: one may be half written when stdout is read. Every line is JSON.
        const logged = () =>
          server
            .stdout()
            .split('\n')
            .slice(0, -1)
            .map((line) => JSON.parse(line) as { context?: string; msg: string });
        const accessLines = () => logged().filter((line) => line.msg === 'request completed');
        await eventually(async () => logged().length >= startLines.length + requests, 10_000, 100).catch(
          () => 'not in time: the assertions below show what was logged',
        );
        // At info: the start-up lines, each once, and one access line per request; nothing of Nest's
        // own module or route mapping, nor anything else.
        expect(accessLines()).toHaveLength(requests);
        const others = logged().filter((line) => line.msg !== 'request completed');
        expect(others).toHaveLength(startLines.length);
        for (const [context, msg] of startLines) {
          expect(others.filter((line) => line.context === context && msg.test(line.msg))).toHaveLength(1);
        }
      } finally {
        await server.stop();
      }
    });
  });
});
