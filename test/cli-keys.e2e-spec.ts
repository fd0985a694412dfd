import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliEnvironment, runCli } from './support/cli';
import { type TestApp, createTestApp } from './support/test-app';
import { TEST_ENGINE, type TestDatabase, createTestDatabase } from './support/test-database';

/** The operator CLI against the same database as a running service. */
describe('keys CLI', () => {
  let database: TestDatabase;
  let env: NodeJS.ProcessEnv;
  let dataDir: string | undefined;

  beforeAll(async () => {
    if (TEST_ENGINE === 'embedded') {
      // The embedded database must be on disk to be shared by the CLI process and the service.
      dataDir = mkdtempSync(join(tmpdir(), 'catalog-cli-'));
      database = {
        config: { kind: 'embedded', dataDir },
        drop: async () => rmSync(dataDir!, { recursive: true, force: true }),
      };
    } else {
      database = await createTestDatabase();
    }
    env = cliEnvironment(database.config);
  });
  afterAll(() => database.drop());

  const oneLineError = (stderr: string) => {
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/^error: /);
  };

  /** The key the first test creates, the next disables, enables and uses once, the last lists. */
  let usedKey: { id: string; key: string } | undefined;

  // One test per few CLI starts: each opens the database, seconds on the embedded one.
  it('migrates the database', async () => {
    const migrate = await runCli(['db:migrate'], env);
    expect(migrate).toMatchObject({ code: 0 });
  });

  it('creates and lists keys', async () => {
    const created = await runCli(
      ['keys:create', '--name', 'partner', '--rpm', '5', '--monthly-quota', '100', '--json'],
      env,
    );
    expect(created.code).toBe(0);
    const lines = created.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const key = JSON.parse(lines[0]);
    expect(Object.keys(key)).toEqual(['id', 'key', 'name', 'rpm', 'monthly_quota']);
    expect(key).toMatchObject({ name: 'partner', rpm: 5, monthly_quota: 100 });
    expect(key.key).toMatch(/^mov_live_[A-Za-z0-9_-]{43}$/);

    const listed = await runCli(['keys:list', '--json'], env);
    expect(listed.code).toBe(0);
    expect(listed.stdout).not.toContain(key.key);
    expect(JSON.parse(listed.stdout)).toEqual([
      {
        id: key.id,
        name: 'partner',
        prefix: key.key.slice(0, 13),
        rpm: 5,
        monthly_quota: 100,
        disabled: false,
        created_at: expect.any(String),
        state: 'active',
        expires_at: null,
        rotating_until: null,
        month_used: 0,
        last_used_on: null,
      },
    ]);

    usedKey = key;
  });

  it('disables and enables a key, and the service then honours it', async () => {
    expect(usedKey).toBeDefined();
    const key = usedKey!;
    expect((await runCli(['keys:disable', key.id], env)).code).toBe(0);
    let app: TestApp = await createTestApp({}, database);
    try {
      const res = await app.http().get('/v1/movies').set('Authorization', `Bearer ${key.key}`).expect(403);
      expect(res.body.error.code).toBe('API_KEY_DISABLED');
    } finally {
      await app.close();
    }

    expect((await runCli(['keys:enable', key.id], env)).code).toBe(0);
    app = await createTestApp({}, database);
    try {
      const res = await app.http().get('/v1/movies').set('Authorization', `Bearer ${key.key}`).expect(200);
      expect(res.headers['x-ratelimit-limit']).toBe('5');
    } finally {
      await app.close();
    }
  });

  it("lists the request the key made against its month's quota, with the day", async () => {
    expect(usedKey).toBeDefined();
    const today = new Date().toISOString().slice(0, 10);
    const [used] = JSON.parse((await runCli(['keys:list', '--json'], env)).stdout);
    expect(used).toMatchObject({ id: usedKey?.id, month_used: 1, last_used_on: today });
    const table = (await runCli(['keys:list'], env)).stdout.trimEnd().split('\n');
    expect(table[0]).toMatch(/^ID +NAME +PREFIX +RPM +MONTHLY QUOTA +THIS MONTH +LAST USED +STATE +/);
    expect(table[1]).toMatch(new RegExp(` 100 +1 \\(1%\\)  ${today}  active `));
  });

  describe('refusals', () => {
    // The keys as listed before any refusal: after them all, the listing is still exactly this.
    let listed: string;
    beforeAll(async () => {
      const listing = await runCli(['keys:list', '--json'], env);
      expect(listing).toMatchObject({ code: 0, stderr: '' });
      listed = listing.stdout;
    });

    it.each([
      [['keys:create', '--name', 'x', '--rpm', 'abc', '--monthly-quota', '1'], '--rpm'],
      [['keys:create', '--name', 'x', '--rpm', '0', '--monthly-quota', '1'], '--rpm'],
      [['keys:create', '--name', 'x', '--rpm', '1', '--monthly-quota', '1.5'], '--monthly-quota'],
      [['keys:create', '--rpm', '1', '--monthly-quota', '1'], '--name'],
      [['keys:create', '--name', ' ', '--rpm', '1', '--monthly-quota', '1'], '--name'],
      [['keys:create', '--name', 'x', '--rpm', '1', '--monthly-quota', '1', '--bogus'], '--bogus'],
      [['keys:disable', 'not-a-uuid'], 'not-a-uuid'],
      [['keys:enable', '00000000-0000-4000-8000-000000000000'], '00000000-0000-4000-8000-000000000000'],
      [['keys:disable'], 'id'],
      [['no:such-command'], 'no:such-command'],
    ])('refuses %j with one line naming %s', async (args, named) => {
      const result = await runCli(args, env);
      expect(result.code).not.toBe(0);
      oneLineError(result.stderr);
      expect(result.stderr).toContain(named);
    });

    // Once after them all: each CLI start opens the database, several seconds on the embedded one.
    it('changed nothing by any refusal', async () => {
      expect((await runCli(['keys:list', '--json'], env)).stdout).toBe(listed);
    });
  });

  it('refuses bad configuration with one line naming the variable', async () => {
    const result = await runCli(['keys:list'], { ...env, PORT: 'eighty' });
    expect(result.code).not.toBe(0);
    oneLineError(result.stderr);
    expect(result.stderr).toContain('PORT');
  });
});
