import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CliResult, cliEnvironment, runCli } from './support/cli';
import { type TestApp, createTestApp } from './support/test-app';
import { TEST_ENGINE, type TestDatabase, createTestDatabase } from './support/test-database';
import { awaitRoomInMinute, eventually, sleep } from './support/timing';

/** The contract's bound for every running server to learn a key's change. */
const PROPAGATION_MS = 10_000;
/** Each CLI start opens the database: several seconds on the embedded one, with restarts between. */
const TEST_TIMEOUT_MS = 240_000;

interface ListedKey {
  id: string;
  prefix: string;
  state: string;
  expires_at: string | null;
  rotating_until: string | null;
}

/**
 * Expiry and rotation as operators drive them with the CLI, and as the built service then answers.
 * On PostgreSQL the service keeps running while the CLI changes keys (it learns the change within the
 * contract's 10 s); the embedded database belongs to one process at a time, so there the service is
 * stopped for each CLI command and started again after it.
 */
describe('key lifecycle over the CLI', () => {
  const embedded = TEST_ENGINE === 'embedded';
  let database: TestDatabase;
  let env: NodeJS.ProcessEnv;
  let app: TestApp | undefined;

  beforeAll(async () => {
    if (embedded) {
      const dataDir = mkdtempSync(join(tmpdir(), 'catalog-lifecycle-'));
      database = {
        config: { kind: 'embedded', dataDir },
        drop: async () => rmSync(dataDir, { recursive: true, force: true }),
      };
    } else {
      database = await createTestDatabase();
    }
    env = cliEnvironment(database.config);
    expect(await runCli(['db:migrate'], env)).toMatchObject({ code: 0 });
  }, TEST_TIMEOUT_MS);
  afterAll(async () => {
    await app?.close();
    await database.drop();
  });

  async function cli(args: string[]): Promise<CliResult> {
    if (embedded && app) {
      await app.close();
      app = undefined;
    }
    return runCli(args, env);
  }

  async function ok(args: string[]): Promise<string> {
    const result = await cli(args);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    return result.stdout;
  }

  async function listed(id: string): Promise<ListedKey> {
    const keys = JSON.parse(await ok(['keys:list', '--json'])) as ListedKey[];
    return keys.find((key) => key.id === id)!;
  }

  async function call(key: string, path = '/v1/movies') {
    app ??= await createTestApp({}, database);
    return app.http().get(path).set('Authorization', `Bearer ${key}`);
  }

  /** The status `key` gets once the running service has learned the latest change. */
  async function settlesTo(key: string, status: number): Promise<void> {
    await eventually(async () => (await call(key)).status === status, PROPAGATION_MS, 250);
  }

  it(
    'refuses a key from its expiry on, says it expired, and serves it again once the expiry is cleared',
    async () => {
      const inAnHour = new Date(Date.now() + 3_600_000).toISOString();
      const created = await ok([
        'keys:create',
        ...['--name', 'expiring', '--rpm', '1000', '--monthly-quota', '100000'],
        ...['--expires-at', inAnHour, '--json'],
      ]);
      const key = JSON.parse(created);
      // The JSON line is the same with or without an expiry.
      expect(Object.keys(key)).toEqual(['id', 'key', 'name', 'rpm', 'monthly_quota']);
      expect(await listed(key.id)).toMatchObject({
        state: 'active',
        expires_at: inAnHour,
        rotating_until: null,
      });
      expect((await call(key.key)).status).toBe(200);
      // The client sees the expiry on /v1/usage, and no rotation.
      const usage = await call(key.key, '/v1/usage');
      expect(usage.status).toBe(200);
      expect(usage.body.data[0].expires_at).toBe(inAnHour);
      expect(usage.body.data[0]).not.toHaveProperty('previous_key_ends_at');

      // Room for the CLI and (embedded) a restart before the instant.
      expect(await ok(['keys:expire', key.id, '--in', embedded ? '45s' : '15s'])).toContain('expires');
      const expiresAt = Date.parse((await listed(key.id)).expires_at!);
      expect(expiresAt - Date.now()).toBeGreaterThan(1_000);
      expect((await call(key.key)).status).toBe(200);
      await sleep(Math.max(0, expiresAt - Date.now()));
      const refused = await call(key.key);
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe('API_KEY_DISABLED');
      expect(refused.body.error.message).toMatch(/expired/);
      expect(await listed(key.id)).toMatchObject({ state: 'expired' });

      await ok(['keys:expire', key.id, '--never']);
      await settlesTo(key.key, 200);
      expect(await listed(key.id)).toMatchObject({ state: 'active', expires_at: null });
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'rotates with an overlap: both secrets are the one key, sharing its minute; overlap 0 retires at once',
    async () => {
      const first = JSON.parse(
        await ok(['keys:create', '--name', 'rotating', '--rpm', '5', '--monthly-quota', '1000', '--json']),
      );
      // On PostgreSQL the rotation happens mid-minute, while the service runs and has counted two
      // requests of the old secret. The embedded database needs the service stopped for the CLI, and a
      // restart can outlast a minute's room, so there the window is counted after the rotation only.
      if (!embedded) {
        await awaitRoomInMinute(30);
        for (let i = 0; i < 2; i++) expect((await call(first.key)).status).toBe(200);
      }

      const rotated = await cli(['keys:rotate', first.id, '--overlap', '10m', '--json']);
      expect(rotated).toMatchObject({ code: 0, stderr: '' });
      const lines = rotated.stdout.trim().split('\n');
      expect(lines).toHaveLength(1);
      const second = JSON.parse(lines[0]);
      expect(Object.keys(second)).toEqual(['id', 'key', 'previous_key_ends_at']);
      expect(second.id).toBe(first.id);
      expect(second.key).toMatch(/^mov_live_[A-Za-z0-9_-]{43}$/);
      expect(second.key).not.toBe(first.key);
      const endsAt = Date.parse(second.previous_key_ends_at);
      expect(Math.abs(endsAt - (Date.now() + 600_000))).toBeLessThan(60_000);

      // Both secrets work, as the same key: one window of 5 for all requests, whichever secret.
      const room = embedded
        ? [second.key, first.key, second.key, first.key, second.key]
        : [second.key, second.key, first.key];
      if (embedded) {
        await call(second.key, '/health');
        await awaitRoomInMinute(20);
      }
      const statuses: number[] = [];
      for (const secret of [...room, second.key, first.key]) {
        const res = await call(secret);
        statuses.push(res.status);
      }
      expect(statuses).toEqual([...room.map(() => 200), 429, 429]);

      // The minute is spent: /v1/usage (counted in the minute) is refused with either secret too.
      expect((await call(second.key, '/v1/usage')).status).toBe(429);
      expect(await listed(first.id)).toMatchObject({
        state: 'rotating',
        rotating_until: new Date(endsAt).toISOString(),
        prefix: second.key.slice(0, 13),
      });

      // Rotating again with no overlap: the previous secret is refused at once, the oldest is forgotten.
      const third = JSON.parse(await ok(['keys:rotate', first.id, '--overlap', '0', '--json']));
      expect(third.id).toBe(first.id);
      await settlesTo(second.key, 403);
      const retired = await call(second.key);
      expect(retired.body.error.code).toBe('API_KEY_DISABLED');
      expect(retired.body.error.message).toMatch(/rotation/);
      expect((await call(first.key)).status).toBe(401);
      expect([200, 429]).toContain((await call(third.key)).status);
      expect(await listed(first.id)).toMatchObject({ state: 'active', rotating_until: null });
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'keeps one minute window and one monthly quota when a running service rotates a key mid-minute',
    async () => {
      // The rotation keys:rotate runs (ApiKeyService.rotate), made in the running service: so on the
      // embedded database too it happens mid-minute, after the old secret's requests were counted.
      app ??= await createTestApp({}, database);
      const running = app;
      const minute = await running.apiKeys.create({ name: 'mid-minute', rpm: 6, monthlyQuota: 1_000_000 });
      const month = await running.apiKeys.create({ name: 'mid-month', rpm: 1_000, monthlyQuota: 5 });
      const codes = async (secrets: string[], path = '/v1/movies') => {
        const answered: Array<number | string> = [];
        for (const secret of secrets) {
          const res = await call(secret, path);
          answered.push(res.status === 200 ? 200 : res.body.error.code);
        }
        return answered;
      };
      const started = Date.now();
      expect(await codes([minute.key, minute.key, minute.key, month.key, month.key])).toEqual(
        Array(5).fill(200),
      );
      const rotatedMinute = await running.apiKeys.rotate(minute.summary.id, 600_000);
      const rotatedMonth = await running.apiKeys.rotate(month.summary.id, 600_000);
      if (!rotatedMinute.rotated || !rotatedMonth.rotated) throw new Error('a rotation was refused');

      // 3 + 3 of the minute's 6, whichever secret; then both are refused in the same window.
      const [oldMinute, newMinute] = [minute.key, rotatedMinute.key];
      expect(await codes([newMinute, oldMinute, newMinute, oldMinute, newMinute])).toEqual([
        200,
        200,
        200,
        'RATE_LIMITED',
        'RATE_LIMITED',
      ]);
      expect(Date.now() - started).toBeLessThan(55_000);
      // 2 + 3 of the month's 5: one quota for both secrets.
      const [oldMonth, newMonth] = [month.key, rotatedMonth.key];
      expect(await codes([newMonth, oldMonth, newMonth, oldMonth])).toEqual([
        200,
        200,
        200,
        'MONTHLY_QUOTA_EXCEEDED',
      ]);
      for (const secret of [oldMonth, newMonth]) {
        const usage = await call(secret, '/v1/usage');
        expect(usage.body.data[0].month).toMatchObject({ used: 5, remaining: 0 });
      }
      const listedMonth = (await running.apiKeys.list()).find((key) => key.id === month.summary.id);
      expect(listedMonth).toMatchObject({ state: 'rotating', month_used: 5 });
    },
    TEST_TIMEOUT_MS,
  );

  describe('refusals', () => {
    let active: string;
    let disabled: string;
    let lapsed: string;
    let listing: string;
    let table: string;
    beforeAll(async () => {
      active = JSON.parse(
        await ok(['keys:create', '--name', 'steady', '--rpm', '5', '--monthly-quota', '10', '--json']),
      ).id;
      disabled = JSON.parse(
        await ok(['keys:create', '--name', 'off', '--rpm', '5', '--monthly-quota', '10', '--json']),
      ).id;
      await ok(['keys:disable', disabled]);
      const created = Date.now();
      lapsed = JSON.parse(
        await ok([
          'keys:create',
          ...['--name', 'lapsed', '--rpm', '5', '--monthly-quota', '10', '--expires-in', '1s', '--json'],
        ]),
      ).id;
      await sleep(Math.max(0, created + 1_500 - Date.now()));
      listing = await ok(['keys:list', '--json']);
      expect((JSON.parse(listing) as ListedKey[]).find((key) => key.id === lapsed)).toMatchObject({
        state: 'expired',
      });
      table = await ok(['keys:list']);
    }, TEST_TIMEOUT_MS);

    const UNKNOWN = '00000000-0000-4000-8000-000000000000';
    const create = ['keys:create', '--name', 'x', '--rpm', '1', '--monthly-quota', '1'];
    it.each([
      [[...create, '--expires-at', '2020-01-01T00:00:00Z'], 'in the past'],
      [[...create, '--expires-at', '2031-02-30'], '--expires-at'],
      [[...create, '--expires-at', '2031-01-01T10:00:00'], '--expires-at'],
      [[...create, '--expires-in', '90'], '--expires-in'],
      [[...create, '--expires-in', '1d', '--expires-at', '2031-01-01'], 'not both'],
      [['keys:expire', '<active>', '--at', '2020-01-01'], '--at is in the past'],
      [['keys:expire', '<active>', '--in', '0'], '--in'],
      [['keys:expire', '<active>'], '--never'],
      [['keys:expire', '<active>', '--in', '1d', '--never'], '--never'],
      [['keys:expire', UNKNOWN, '--in', '1d'], UNKNOWN],
      [['keys:rotate', '<active>', '--overlap', '31d'], 'at most 30d'],
      [['keys:rotate', '<active>', '--overlap', 'soon'], '--overlap'],
      [['keys:rotate', '<active>'], '--overlap'],
      [['keys:rotate', '<disabled>', '--overlap', '1h'], 'disabled'],
      [['keys:rotate', UNKNOWN, '--overlap', '1h'], UNKNOWN],
      [['keys:rotate', 'not-a-uuid', '--overlap', '1h'], 'not-a-uuid'],
      [['keys:rotate', '<lapsed>', '--overlap', '1h'], 'has expired'],
      [['keys:rotate', '<active>', '--overlap', '721h'], 'at most 30d'],
      [[...create, '--expires-in', '3661d'], 'at most 3660d'],
      [['keys:expire', '<active>', '--at', '2045-01-01'], 'at most 3660d ahead'],
      [['keys:expire', '<lapsed>', '--at', '2020-01-01'], 'in the past'],
      [['keys:disable', UNKNOWN], UNKNOWN],
      [['keys:enable', UNKNOWN], UNKNOWN],
    ])(
      'refuses %j with one line naming %s',
      async (args, named) => {
        const ids: Record<string, string> = {
          '<active>': active,
          '<disabled>': disabled,
          '<lapsed>': lapsed,
        };
        const result = await cli(args.map((arg) => ids[arg] ?? arg));
        expect(result.code).not.toBe(0);
        expect(result.stderr.trim().split('\n')).toHaveLength(1);
        expect(result.stderr).toMatch(/^error: /);
        expect(result.stderr).toContain(named);
        expect(result.stdout).toBe('');
      },
      TEST_TIMEOUT_MS,
    );

    it(
      'changed nothing by any refusal: both listings are as before them',
      async () => {
        expect(await ok(['keys:list', '--json'])).toBe(listing);
        expect(await ok(['keys:list'])).toBe(table);
      },
      TEST_TIMEOUT_MS,
    );
  });
});
