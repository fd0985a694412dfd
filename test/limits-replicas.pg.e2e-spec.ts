import Redis from 'ioredis';
import { Database } from '../src/database/database';
import { type TestApp, createTestApp } from './support/test-app';
import { type TestDatabase, createTestDatabase } from './support/test-database';
import { awaitRoomInMinute, eventually } from './support/timing';

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

  it('accepts exactly the per-minute policy from a burst split across three replicas', async () => {
    const { key } = await replicas[0].apiKeys.create({ name: 'burst', rpm: 10, monthlyQuota: 1_000_000 });
    await awaitRoomInMinute(15);
    const statuses = await burst(replicas, key, 45);
    expect(count(statuses, 200)).toBe(10);
    expect(count(statuses, 'RATE_LIMITED')).toBe(35);
  });

  it('never accepts more than the monthly quota under concurrency, and keeps usage across restarts', async () => {
    const { key, summary } = await replicas[0].apiKeys.create({ name: 'quota', rpm: 1_000, monthlyQuota: 7 });
    await awaitRoomInMinute(15);
    const statuses = await burst(replicas, key, 40);
    expect(count(statuses, 200)).toBe(7);
    expect(count(statuses, 'MONTHLY_QUOTA_EXCEEDED')).toBe(33);

    await Promise.all(replicas.map((replica) => replica.close()));
    replicas = await startReplicas(2);
    expect(await burst(replicas, key, 4)).toEqual(Array(4).fill('MONTHLY_QUOTA_EXCEEDED'));
    const [usage] = await replicas[0].app
      .get(Database)
      .query<{ used: number }>('SELECT used::int AS used FROM quota_usage WHERE key_id = $1', [summary.id]);
    expect(usage.used).toBe(7);
  });

  it('refuses a disabled key on every running replica within 10 seconds', async () => {
    const { key, summary } = await replicas[0].apiKeys.create({
      name: 'disable',
      rpm: 1_000,
      monthlyQuota: 1_000,
    });
    expect(await burst(replicas, key, replicas.length)).toEqual(Array(replicas.length).fill(200));
    await replicas[0].apiKeys.setDisabled(summary.id, true);
    await eventually(
      async () => count(await burst(replicas, key, replicas.length * 2), 403) === replicas.length * 2,
      10_000,
    );
  });

  it('holds the per-minute limit with the optional Redis storage too, counting in Redis', async () => {
    const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
    const redisReplicas = await startReplicas(2, { redisUrl });
    const redis = new Redis(redisUrl);
    try {
      const { key, summary } = await redisReplicas[0].apiKeys.create({
        name: 'redis',
        rpm: 6,
        monthlyQuota: 8,
      });
      await awaitRoomInMinute(15);
      const statuses = await burst(redisReplicas, key, 20);
      expect(count(statuses, 200)).toBe(6);
      expect(count(statuses, 'RATE_LIMITED')).toBe(14);
      const windows = await redis.keys(`catalog-api:rpm:${summary.id}:*`);
      expect(windows).toHaveLength(1);
      expect(Number(await redis.get(windows[0]))).toBe(20);
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
});
