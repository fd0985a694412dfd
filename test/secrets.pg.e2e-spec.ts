import { Client } from 'pg';
import { cliEnvironment, runCli } from './support/cli';
import { rawRequest } from './support/raw-http';
import { type HttpAnswer, ServerProcess } from './support/server-process';
import { SERVED_IDS, seedServedCatalog } from './support/served-catalog';
import { type TestDatabase, createTestDatabase } from './support/test-database';

const PORT = 4340;

/** Every run of 12 characters of the key's secret part: none may appear anywhere we look. */
function secretFragments(key: string): string[] {
  const secret = key.slice('mov_live_'.length);
  return Array.from({ length: secret.length - 11 }, (_, i) => secret.slice(i, i + 12));
}

const leaks = (text: string, keys: string[]) =>
  keys.flatMap(secretFragments).filter((fragment) => text.includes(fragment));

/**
 * The key tables hold no key, and a run through every error path with the
 * most verbose log level writes no key material to the logs, nor echoes it in a response.
 */
describe('no key material in storage, logs or answers', () => {
  let database: TestDatabase;
  let server: ServerProcess;
  let url: string;
  let active: string;
  let disabled: string;
  let tiny: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    if (database.config.kind !== 'postgres') throw new Error('PostgreSQL only');
    url = database.config.url;
    active = (await seedServedCatalog(database.config)).key;
    const env = cliEnvironment(database.config);
    const created = await runCli(
      ['keys:create', '--name', 'off', '--rpm', '5', '--monthly-quota', '5', '--json'],
      env,
    );
    const off = JSON.parse(created.stdout) as { id: string; key: string };
    disabled = off.key;
    expect((await runCli(['keys:disable', off.id], env)).code).toBe(0);
    // Created before the server starts, so its first load of the keys already holds it.
    const limited = await runCli(
      ['keys:create', '--name', 'tiny', '--rpm', '1', '--monthly-quota', '1', '--json'],
      env,
    );
    tiny = (JSON.parse(limited.stdout) as { key: string }).key;
    server = await ServerProcess.start(PORT, { DATABASE_URL: url, LOG_LEVEL: 'trace' });
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await database?.drop();
  });

  it('keeps keys out of every response and every log line', async () => {
    const keys = [active, disabled, tiny];
    const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });
    const answers: HttpAnswer[] = [];
    const get = async (path: string, headers: Record<string, string> = {}) => {
      answers.push(await server.get(path, headers));
    };
    for (const key of keys) {
      for (const name of ['api_key', 'key', 'token', 'access_token', 'apiKey', 'q']) {
        await get(`/v1/titles/${SERVED_IDS[0]}?${name}=${key}`);
        await get(`/v1/titles/${SERVED_IDS[0]}?${name}=${key}`, bearer(active));
        await get(`/v1/search?${name}=${encodeURIComponent(key)}`, bearer(active));
        await get(`/nope?${name}=${key}`);
      }
      await get(`/v1/titles/${key}`, bearer(active));
      await get(`/v1/titles/${key}`);
      await get('/v1/movies', bearer(key));
      await get('/v1/movies', bearer(`${key}x`));
      await get('/v1/movies', bearer(key.toUpperCase()));
      await get('/v1/movies', { Authorization: key });
      await get('/v1/movies', { Authorization: `Basic ${Buffer.from(`user:${key}`).toString('base64')}` });
      await get('/v1/movies?page=0', bearer(key));
      await get('/v1/movies?page=1&page=2', bearer(key));
      await get('/v1/movies?%ZZ', bearer(key));
      const refused = await rawRequest(
        PORT,
        `GET /v1/movies?api_key=${key} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nX-Pad: ${'a'.repeat(20_000)}\r\n\r\n`,
      );
      answers.push({ ...refused, headers: refused.headers });
    }
    // A database failure in the middle of authenticated requests (every backend terminated).
    const admin = new Client({ connectionString: url });
    await admin.connect();
    try {
      const during = Promise.all(
        SERVED_IDS.slice(0, 10).map((id) => server.get(`/v1/titles/${id}?api_key=${active}`, bearer(active))),
      );
      await admin.query(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
      );
      answers.push(...(await during));
    } finally {
      await admin.end();
    }
    await get('/v1/movies', bearer(active));

    const statuses = new Set(answers.map((answer) => answer.status));
    for (const status of [200, 400, 401, 403, 404, 429, 431]) expect(statuses).toContain(status);
    for (const answer of answers) {
      expect(leaks(answer.body + JSON.stringify(answer.headers), keys)).toEqual([]);
    }
    const logs = server.logs();
    expect(logs.split('\n').length).toBeGreaterThan(answers.length);
    // The key-bearing URLs were logged (redacted), and the debug lines were written too.
    expect(logs).toContain('[REDACTED]');
    expect(logs).toContain('"level":20');
    expect(leaks(logs, keys)).toEqual([]);
  });

  it('stores no key: a dump of every table holds no key material', async () => {
    const admin = new Client({ connectionString: url });
    await admin.connect();
    try {
      const { rows: tables } = await admin.query<{ name: string }>(
        `SELECT quote_ident(schemaname) || '.' || quote_ident(tablename) AS name FROM pg_tables
         WHERE schemaname NOT IN ('pg_catalog', 'information_schema')`,
      );
      let dump = '';
      for (const { name } of tables) {
        const { rows } = await admin.query<{ row: string }>(`SELECT t::text AS row FROM ${name} t`);
        dump += rows.map((r) => r.row).join('\n');
      }
      expect(tables.map((t) => t.name)).toContain('public.api_keys');
      expect(dump).toContain('mov_live_');
      expect(leaks(dump, [active, disabled])).toEqual([]);
    } finally {
      await admin.end();
    }
  });
});
