import Redis from 'ioredis';
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import request from 'supertest';
import { ApiKeyDirectory } from '../src/auth/api-key-directory';
import { Database } from '../src/database/database';
import { RESERVATION } from '../src/limits/limits-policy';
import { cliEnvironment } from './support/cli';
import { type TestApp, createTestApp } from './support/test-app';
import { type TestDatabase, createTestDatabase } from './support/test-database';
import { awaitRoomInMinute, eventually } from './support/timing';
import { freePort } from './support/free-port';

/** Several replicas of the service on one PostgreSQL database, as in production. */
describe('limits across replicas sharing one database', () => {
  let database: TestDatabase;
  let replicas: TestApp[];

  const startReplicas = async (count: number, overrides = {}) =>
    Promise.all(Array.from({ length: count }, () => createTestApp(overrides, database)));

  beforeAll(async () => {
    database = await createTestDatabase();
    replicas = await startReplicas(3);
  });
  afterAll(async () => {
    await Promise.all(replicas.map((replica) => replica.close()));
    await database.drop();
  });

  /** A key created on the first replica; the others learn it on their next refresh, made now. */
  const newKey = async (apps: TestApp[], name: string, rpm: number, monthlyQuota: number) => {
    const created = await apps[0].apiKeys.create({ name, rpm, monthlyQuota });
    await Promise.all(apps.map((app) => app.app.get(ApiKeyDirectory).refresh()));
    return created;
  };

  /** `total` concurrent requests spread round-robin over the replicas; the statuses returned. */
  const burst = async (apps: TestApp[], key: string, total: number) => {
    const responses = await Promise.all(
      Array.from({ length: total }, (_, i) =>
        apps[i % apps.length].http().get('/v1/movies').set('Authorization', `Bearer ${key}`),
      ),
    );
    return responses.map((res) => (res.status === 429 ? res.body.error.code : res.status));
  };
  const count = (statuses: unknown[], value: unknown) => statuses.filter((status) => status === value).length;
  const reserved = async (table: 'rate_counters' | 'quota_counters', key: string) => {
    const [row] = await replicas[0].app
      .get(Database)
      .query<{ reserved: number }>(`SELECT reserved::int AS reserved FROM ${table} WHERE key = $1`, [key]);
    return row?.reserved ?? 0;
  };

  it('accepts exactly the per-minute policy from a burst split across three replicas', async () => {
    const { key } = await newKey(replicas, 'burst', 10, 1_000_000);
    await awaitRoomInMinute(15);
    const statuses = await burst(replicas, key, 45);
    expect(count(statuses, 200)).toBe(10);
    expect(count(statuses, 'RATE_LIMITED')).toBe(35);
  });

  it('reaches a larger policy exactly when every replica has demand, in waves', async () => {
    const { key, summary } = await newKey(replicas, 'waves', 120, 1_000_000);
    await awaitRoomInMinute(20);
    const statuses = [
      ...(await burst(replicas, key, 60)),
      ...(await burst(replicas, key, 60)),
      ...(await burst(replicas, key, 90)),
    ];
    expect(count(statuses, 200)).toBe(120);
    expect(count(statuses, 'RATE_LIMITED')).toBe(90);
    expect(await reserved('rate_counters', `minute:${summary.id}`)).toBe(120);
    // Every request that passed the minute counted in the month, in blocks reserved ahead.
    expect(await reserved('quota_counters', `month:${summary.id}`)).toBeGreaterThanOrEqual(120);
  });

  it('never accepts more than the monthly quota under concurrency, and keeps usage across restarts', async () => {
    const { key, summary } = await newKey(replicas, 'quota', 1_000, 7);
    await awaitRoomInMinute(15);
    const statuses = await burst(replicas, key, 40);
    expect(count(statuses, 200)).toBe(7);
    expect(count(statuses, 'MONTHLY_QUOTA_EXCEEDED')).toBe(33);

    await Promise.all(replicas.map((replica) => replica.close()));
    replicas = await startReplicas(2);
    expect(await burst(replicas, key, 4)).toEqual(Array(4).fill('MONTHLY_QUOTA_EXCEEDED'));
    expect(await reserved('quota_counters', `month:${summary.id}`)).toBe(7);
  });

  it('counts a reserved block as used at once, and gives back what is unspent at shutdown', async () => {
    const [replica] = await startReplicas(1);
    const { key, summary } = await newKey([replica, ...replicas], 'restart', 100_000, 100_000);
    for (let i = 0; i < 5; i++) expect(await burst([replica], key, 20)).toEqual(Array(20).fill(200));
    // Mid-block: the durable counter already holds at least every accepted request.
    const during = await reserved('quota_counters', `month:${summary.id}`);
    expect(during).toBeGreaterThanOrEqual(100);
    expect(during).toBeLessThanOrEqual(100 + RESERVATION.maxBlock);
    await replica.close();
    expect(await reserved('quota_counters', `month:${summary.id}`)).toBe(100);
    // The other replicas carry on from the exact count.
    expect(await burst(replicas, key, 10)).toEqual(Array(10).fill(200));
  });

  it('never under-counts the month when a replica is killed in the middle of a block', async () => {
    const { key, summary } = await newKey(replicas, 'killed', 100_000, 100_000);
    const server = await startServer();
    try {
      // The server loaded its keys at start; this key was created before it.
      for (let i = 0; i < 4; i++) {
        const responses = await Promise.all(
          Array.from({ length: 25 }, () =>
            request(server.url).get('/v1/movies').set('Authorization', `Bearer ${key}`),
          ),
        );
        expect(responses.map((res) => res.status)).toEqual(Array(25).fill(200));
      }
    } finally {
      server.process.kill('SIGKILL');
      await new Promise((resolve) => server.process.once('exit', resolve));
    }
    const counted = await reserved('quota_counters', `month:${summary.id}`);
    expect(counted).toBeGreaterThanOrEqual(100);
    expect(counted).toBeLessThanOrEqual(100 + RESERVATION.maxBlock);
  });

  it('reports usage that matches the shared counters after requests on two replicas', async () => {
    const pair = replicas.slice(0, 2);
    const { key, summary } = await newKey(pair, 'usage', 1_000, 1_000);
    await awaitRoomInMinute(20);
    const statuses = [];
    for (let i = 0; i < 12; i++) statuses.push(...(await burst([pair[i % 2]], key, 1)));
    expect(statuses).toEqual(Array(12).fill(200));
    const usage = async (replica: TestApp) =>
      (await replica.http().get('/v1/usage').set('Authorization', `Bearer ${key}`).expect(200)).body.data[0];
    // A block the other replica holds unspent counts as used (one block at most, a quarter of what
    // was left) until it goes back, idle for 1 s; then every replica reports the exact count. Either
    // replica may hold the last block, so wait until the shared counter holds no unspent block.
    const oneBlock = Math.ceil(1_000 * RESERVATION.shareOfRemaining);
    for (const replica of pair) {
      const { used } = (await usage(replica)).month;
      expect(used).toBeGreaterThanOrEqual(12);
      expect(used).toBeLessThanOrEqual(12 + oneBlock);
    }
    await eventually(
      async () => (await reserved('quota_counters', `month:${summary.id}`)) === 12,
      10_000,
      250,
    );
    for (const replica of pair)
      expect((await usage(replica)).month).toMatchObject({ used: 12, remaining: 988 });
    // Every usage request counted in the minute, on whichever replica answered it.
    const minute = (await usage(pair[1])).minute;
    expect(minute.used).toBeGreaterThanOrEqual(12 + 3);
    expect(minute.used + minute.remaining).toBe(1_000);
  });

  it('refuses a disabled key on every running replica within 10 seconds', async () => {
    const { key, summary } = await newKey(replicas, 'disable', 1_000, 1_000);
    expect(await burst(replicas, key, replicas.length)).toEqual(Array(replicas.length).fill(200));
    await replicas[0].apiKeys.setDisabled(summary.id, true);
    await eventually(
      async () => count(await burst(replicas, key, replicas.length * 2), 403) === replicas.length * 2,
      10_000,
    );
  });

  it('accepts a key created by another process on every running replica within seconds', async () => {
    const [other] = await startReplicas(1);
    try {
      const { key } = await other.apiKeys.create({ name: 'late', rpm: 1_000, monthlyQuota: 1_000 });
      await eventually(
        async () => count(await burst(replicas, key, replicas.length), 200) === replicas.length,
        10_000,
      );
    } finally {
      await other.close();
    }
  });

  it('holds the per-minute limit with the optional Redis storage too, counting in Redis', async () => {
    const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
    const redisReplicas = await startReplicas(2, { redisUrl });
    const redis = new Redis(redisUrl);
    try {
      const { key, summary } = await newKey(redisReplicas, 'redis', 6, 8);
      await awaitRoomInMinute(15);
      const statuses = await burst(redisReplicas, key, 20);
      expect(count(statuses, 200)).toBe(6);
      expect(count(statuses, 'RATE_LIMITED')).toBe(14);
      expect(await redis.hget(`catalog-api:limits:minute:${summary.id}`, 'reserved')).toBe('6');
      expect(await reserved('rate_counters', `minute:${summary.id}`)).toBe(0);
    } finally {
      redis.disconnect();
      await Promise.all(redisReplicas.map((replica) => replica.close()));
    }
  });

  it('keeps answering and limiting through PostgreSQL while Redis is unreachable', async () => {
    const [replica] = await startReplicas(1, { redisUrl: 'redis://127.0.0.1:1' });
    try {
      const { key } = await replica.apiKeys.create({ name: 'no redis', rpm: 3, monthlyQuota: 100 });
      await awaitRoomInMinute(15);
      const statuses = await burst([replica], key, 5);
      expect(count(statuses, 200)).toBe(3);
      expect(count(statuses, 'RATE_LIMITED')).toBe(2);
    } finally {
      await replica.close();
    }
  });

  /** `node dist/main.js` on this database and a free loopback port (the build output; `npm test` builds first). */
  async function startServer(): Promise<{ url: string; process: ChildProcess }> {
    const port = await freePort();
    const child = spawn(process.execPath, [join(__dirname, '..', 'dist', 'main.js')], {
      env: { ...cliEnvironment(database.config), PORT: String(port), HOST: '127.0.0.1' },
      stdio: 'ignore',
    });
    const url = `http://127.0.0.1:${port}`;
    try {
      await eventually(
        async () =>
          (
            await request(url)
              .get('/health')
              .catch(() => null)
          )?.status === 200,
        20_000,
      );
    } catch (error) {
      // A server that never answered is the test's to end, or it outlives the run.
      child.kill('SIGKILL');
      throw error;
    }
    return { url, process: child };
  }
});
