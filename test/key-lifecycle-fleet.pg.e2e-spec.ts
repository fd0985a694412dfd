import { type CliResult, cliEnvironment, runCli } from './support/cli';
import { freePort } from './support/free-port';
import { PgBouncer } from './support/pgbouncer';
import { SERVED_IDS, seedServedCatalog } from './support/served-catalog';
import { type HttpAnswer, ServerProcess } from './support/server-process';
import { type TestDatabase, createTestDatabase } from './support/test-database';
import { eventually, sleep } from './support/timing';

/**
 * Expiry and rotation on a fleet: three built replicas on one PostgreSQL, with and without Redis,
 * and behind PgBouncer in transaction mode, while the CLI changes keys. How soon every replica
 * applies a key change is docs/operations.md's table (Change feed): with a live feed at once (the
 * notice plus one key read; held to 1 s here, as test/change-feed.pg holds a disable), without one
 * within the contract's 10 s. An expiry and the end of an overlap hold within the same bound from
 * their instant (or from the command, when it comes later), and never before it.
 */
const REPLICAS = 3;
const FEED_LIVE_BOUND_MS = 1_000;
const CONTRACT_BOUND_MS = 10_000;
const today = () => new Date().toISOString().slice(0, 10);

interface Setup {
  name: string;
  redis: boolean;
  pooler: boolean;
}

const SETUPS: Setup[] = [
  { name: 'PostgreSQL', redis: false, pooler: false },
  { name: 'PostgreSQL with Redis', redis: true, pooler: false },
  { name: 'PostgreSQL behind PgBouncer (no change feed)', redis: false, pooler: true },
];

/** The error code of an answer, or its status when it has none. */
const codeOf = (answer: HttpAnswer | null): string =>
  answer === null
    ? 'socket'
    : answer.status === 200
      ? '200'
      : ((JSON.parse(answer.body) as { error?: { code: string } }).error?.code ?? String(answer.status));

describe.each(SETUPS)('key expiry and rotation on three replicas: $name', (setup) => {
  let database: TestDatabase;
  let bouncer: PgBouncer | undefined;
  let replicas: ServerProcess[] = [];
  let cliEnv: NodeJS.ProcessEnv;
  /** How soon every replica applies a key change in this setup (docs/operations.md, Change feed). */
  const bound = setup.pooler ? CONTRACT_BOUND_MS : FEED_LIVE_BOUND_MS;

  beforeAll(async () => {
    database = await createTestDatabase();
    if (database.config.kind !== 'postgres') throw new Error('PostgreSQL only');
    const directUrl = database.config.url;
    await seedServedCatalog(database.config);
    let serverUrl = directUrl;
    cliEnv = cliEnvironment(database.config);
    if (setup.pooler) {
      bouncer = await PgBouncer.inFrontOf(directUrl);
      serverUrl = bouncer.url(directUrl);
      // The CLI as an operator runs it behind the pooler.
      cliEnv = { ...cliEnvironment({ kind: 'postgres', url: serverUrl }), DATABASE_DIRECT_URL: directUrl };
    }
    const env: NodeJS.ProcessEnv = { DATABASE_URL: serverUrl, SHUTDOWN_GRACE_MS: '0' };
    if (setup.redis) env.REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
    // Six distinct ports (the OS may hand out a port it just handed out, once it is free again).
    const ports = new Set<number>();
    while (ports.size < 2 * REPLICAS) ports.add(await freePort());
    const [apiPorts, metricsPorts] = [[...ports].slice(0, REPLICAS), [...ports].slice(REPLICAS)];
    replicas = await Promise.all(
      apiPorts.map((port, r) => ServerProcess.start(port, { ...env, METRICS_PORT: String(metricsPorts[r]) })),
    );
    // The bound this file holds each setup to is its feed's: wait until every replica's feed is as
    // the setup has it (live; or, behind the pooler, found not to deliver).
    const feedLive = setup.pooler ? 0 : 1;
    await eventually(
      async () => {
        for (const port of metricsPorts) {
          const body = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
          if (!new RegExp(`^db_change_feed_live ${feedLive}$`, 'm').test(body)) return false;
        }
        return true;
      },
      15_000,
      100,
    );
  }, 240_000);

  afterAll(async () => {
    await Promise.all(replicas.map((replica) => replica.stop()));
    await bouncer?.stop();
    await database?.drop();
  });

  const cli = async (args: string[]): Promise<string> => {
    const result: CliResult = await runCli(args, cliEnv);
    expect({ args, code: result.code, stderr: result.stderr }).toEqual({ args, code: 0, stderr: '' });
    return result.stdout;
  };
  const createKey = async (name: string, rpm: number, monthlyQuota: number) =>
    JSON.parse(
      await cli([
        'keys:create',
        ...['--name', name, '--rpm', String(rpm), '--monthly-quota', String(monthlyQuota), '--json'],
      ]),
    ) as { id: string; key: string };
  const rotate = async (id: string, overlap: string) =>
    JSON.parse(await cli(['keys:rotate', id, '--overlap', overlap, '--json'])) as {
      key: string;
      previous_key_ends_at: string;
    };
  const listed = async (id: string) =>
    (JSON.parse(await cli(['keys:list', '--json'])) as Array<Record<string, unknown>>).find(
      (key) => key.id === id,
    )!;
  const ask = (replica: number, key: string): Promise<HttpAnswer | null> =>
    replicas[replica]
      .get(`/v1/titles/${SERVED_IDS[0]}`, { Authorization: `Bearer ${key}` })
      .catch(() => null);
  /** `secrets[i]` on replica i % 3, all at once: the codes in order. */
  const burst = async (secrets: string[]) =>
    (await Promise.all(secrets.map((secret, i) => ask(i % REPLICAS, secret)))).map(codeOf);
  const count = (codes: string[], code: string) => codes.filter((c) => c === code).length;

  /**
   * Asks every replica with `secret` every 100 ms from now until each has answered `refusal` and
   * `deadline` has passed. Every answer received before `notBefore` was served (200); from its first
   * refusal on, a replica refuses every time; and every replica refused by `deadline`.
   */
  async function refusedEverywhereBy(secret: string, refusal: string, notBefore: number, deadline: number) {
    const firstRefusal: Array<number | null> = Array(REPLICAS).fill(null);
    const problems: string[] = [];
    for (;;) {
      const asked = await Promise.all(
        replicas.map(async (_, r) => {
          const answer = await ask(r, secret);
          return { r, code: codeOf(answer), at: Date.now() };
        }),
      );
      for (const { r, code, at } of asked) {
        if (code === refusal) firstRefusal[r] ??= at;
        else if (code !== '200' || firstRefusal[r] !== null)
          problems.push(`replica ${r}: ${code} at ${new Date(at).toISOString()}`);
        if (code === refusal && at < notBefore) problems.push(`replica ${r}: refused before its instant`);
      }
      if (firstRefusal.every((at) => at !== null) || Date.now() > deadline + 2_000) break;
      await sleep(100);
    }
    expect(problems).toEqual([]);
    for (const at of firstRefusal) {
      expect(at).not.toBeNull();
      expect(at!).toBeLessThanOrEqual(deadline);
    }
    return Math.max(...(firstRefusal as number[])) - notBefore;
  }

  it('keeps one minute window and one monthly quota across a rotation mid-minute, whichever secret asks where', async () => {
    // The minute: 5 of its 10 with the old secret, then the rotation, then both secrets on every replica.
    const minute = await createKey('minute', 10, 1_000_000);
    const started = Date.now();
    expect(await burst(Array(5).fill(minute.key))).toEqual(Array(5).fill('200'));
    const rotated = await rotate(minute.id, '1h');
    const mixed = await burst(Array.from({ length: 18 }, (_, i) => (i % 2 ? minute.key : rotated.key)));
    // The window runs 60 s from its first request: everything above fell in it.
    expect(Date.now() - started).toBeLessThan(50_000);
    expect(count(mixed, '200')).toBe(5);
    expect(count(mixed, 'RATE_LIMITED')).toBe(13);

    // The month: 4 of its 10 with the old secret, then the rotation, then both secrets.
    const month = await createKey('month', 1_000, 10);
    expect(await burst(Array(4).fill(month.key))).toEqual(Array(4).fill('200'));
    const renewed = await rotate(month.id, '1h');
    const after = await burst(Array.from({ length: 12 }, (_, i) => (i % 2 ? month.key : renewed.key)));
    expect(count(after, '200')).toBe(6);
    expect(count(after, 'MONTHLY_QUOTA_EXCEEDED')).toBe(6);
    // One counter for the key: the listing shows the quota used up, today, as the key's.
    expect(await listed(month.id)).toMatchObject({
      state: 'rotating',
      month_used: 10,
      last_used_on: today(),
    });
  }, 120_000);

  it('refuses an expired key on every replica within the bound, and never before its instant', async () => {
    const { id, key } = await createKey('expiring', 100_000, 1_000_000);
    expect(await burst([key, key, key])).toEqual(['200', '200', '200']);
    const out = await cli(['keys:expire', id, '--in', '3s']);
    const commandEnd = Date.now();
    const expiresAt = Date.parse(/expires (\S+)\.$/m.exec(out)![1]);
    const ms = await refusedEverywhereBy(
      key,
      'API_KEY_DISABLED',
      expiresAt,
      Math.max(expiresAt, commandEnd) + bound,
    );
    console.info(`${setup.name}: an expiry refused on all ${REPLICAS} replicas ${ms} ms after its instant`);
    const refused = JSON.parse((await ask(0, key))!.body) as { error: { message: string } };
    expect(refused.error.message).toMatch(/expired/);
    expect(await listed(id)).toMatchObject({ state: 'expired' });
  }, 120_000);

  it('serves a new secret on its first request everywhere, ends the overlap within the bound, and retires the oldest', async () => {
    const { id, key: first } = await createKey('rotated', 100_000, 1_000_000);
    expect(await burst([first, first, first])).toEqual(['200', '200', '200']);
    const second = await rotate(id, '1h');
    expect(await burst([second.key, second.key, second.key])).toEqual(['200', '200', '200']);

    // A second rotation with a short overlap: the first secret is retired (401 once each replica
    // has re-read the key), the second works until its overlap ends, then answers 403.
    const third = await rotate(id, '3s');
    const commandEnd = Date.now();
    const endsAt = Date.parse(third.previous_key_ends_at);
    expect(await burst([third.key, third.key, third.key])).toEqual(['200', '200', '200']);
    await eventually(
      async () => (await burst([first, first, first])).every((code) => code === 'INVALID_API_KEY'),
      Math.max(0, commandEnd + bound - Date.now()),
      50,
    );
    const ms = await refusedEverywhereBy(
      second.key,
      'API_KEY_DISABLED',
      endsAt,
      Math.max(endsAt, commandEnd) + bound,
    );
    console.info(`${setup.name}: an overlap's end refused on all ${REPLICAS} replicas ${ms} ms after it`);
    expect(await burst([third.key, third.key, third.key])).toEqual(['200', '200', '200']);
    expect(await listed(id)).toMatchObject({ state: 'active', rotating_until: null });
  }, 120_000);
});
