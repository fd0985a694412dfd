import { Agent } from 'node:http';
import Redis from 'ioredis';
import { Client } from 'pg';
import { RESERVATION } from '../src/limits/limits-policy';
import { type InsertedKey, insertApiKeys } from './support/api-keys-sql';
import { freePort } from './support/free-port';
import { RedisProcess } from './support/redis-process';
import { ServerProcess } from './support/server-process';
import { SERVED_IDS, seedServedCatalog } from './support/served-catalog';
import { TcpProxy } from './support/tcp-proxy';
import { type TestDatabase, createTestDatabase } from './support/test-database';
import { sleep } from './support/timing';

const LOAD_KEYS = 60;
const PROBE_KEYS = 40;
const WORKERS = 16;
/** Each worker's pace: 16 workers at one request per 150 ms is about 100 requests/s over 60 keys. */
const WORKER_INTERVAL_MS = 150;
const LIMITED_RPM = 50;
const COUNTER_PREFIX = 'catalog-api:limits:minute:';

interface Sample {
  at: number;
  ms: number;
  status: number;
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? Number.NaN;
};

/**
 * The minute's counters in Redis, which the test runs on its own port behind a
 * TCP proxy it controls. A partition (the proxy holds every byte) must not slow requests beyond the
 * first second (a circuit breaker sends reservations to PostgreSQL at once), Redis must count again
 * within 2 s of healing, and a key's minute must hold across a Redis failure, the PostgreSQL
 * fallback and a Redis restarted empty.
 */
describe('Redis failures: partition and restart (built server, Redis behind a proxy)', () => {
  let database: TestDatabase;
  let databaseUrl: string;
  let redis: RedisProcess;
  let proxy: TcpProxy;
  let server: ServerProcess;
  let metricsPort: number;
  let direct: Redis;
  let loadKeys: InsertedKey[];
  let probeKeys: InsertedKey[];
  let limited: InsertedKey[];

  beforeAll(async () => {
    database = await createTestDatabase();
    if (database.config.kind !== 'postgres') throw new Error('PostgreSQL only');
    databaseUrl = database.config.url;
    await seedServedCatalog(database.config);
    const unlimited = { rpm: 1_000_000, monthlyQuota: 1_000_000_000 };
    loadKeys = await insertApiKeys(
      databaseUrl,
      Array.from({ length: LOAD_KEYS }, (_, i) => ({ name: `load ${i}`, ...unlimited })),
    );
    probeKeys = await insertApiKeys(
      databaseUrl,
      Array.from({ length: PROBE_KEYS }, (_, i) => ({ name: `probe ${i}`, ...unlimited })),
    );
    limited = await insertApiKeys(databaseUrl, [
      { name: 'limited', rpm: LIMITED_RPM, monthlyQuota: 1_000_000 },
    ]);
    redis = new RedisProcess(await freePort());
    await redis.start();
    proxy = new TcpProxy(await freePort(), { host: '127.0.0.1', port: redis.port });
    await proxy.restore();
    direct = new Redis(redis.url, { maxRetriesPerRequest: 0 });
    direct.on('error', () => undefined);
    metricsPort = await freePort();
    server = await ServerProcess.start(await freePort(), {
      DATABASE_URL: databaseUrl,
      REDIS_URL: `redis://127.0.0.1:${proxy.port}`,
      METRICS_PORT: String(metricsPort),
    });
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    direct?.disconnect();
    await proxy?.cut();
    await redis?.kill();
    await database?.drop();
  });

  const auth = (key: InsertedKey) => ({ Authorization: `Bearer ${key.key}` });
  /** The process's `dependency_degraded{dependency="redis"}` now. */
  const redisDegraded = async () =>
    /dependency_degraded\{dependency="redis"\} (\d)/.exec(
      await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text(),
    )?.[1];

  /** Steady load on `LOAD_KEYS` keys until `stop` resolves; every answer's time and status. */
  async function load(stop: Promise<void>): Promise<Sample[]> {
    const samples: Sample[] = [];
    let stopped = false;
    void stop.then(() => (stopped = true));
    let next = 0;
    await Promise.all(
      Array.from({ length: WORKERS }, async () => {
        const agent = new Agent({ keepAlive: true, maxSockets: 1 });
        try {
          while (!stopped) {
            const key = loadKeys[next++ % loadKeys.length];
            const at = Date.now();
            const answer = await server.get(`/v1/titles/${SERVED_IDS[next % 10]}`, auth(key), agent);
            const ms = Date.now() - at;
            samples.push({ at, ms, status: answer.status });
            await sleep(Math.max(0, WORKER_INTERVAL_MS - ms));
          }
        } finally {
          agent.destroy();
        }
      }),
    );
    return samples;
  }

  const between = (samples: Sample[], from: number, to: number) =>
    samples.filter((s) => s.at >= from && s.at < to).map((s) => s.ms);

  it('a partition costs only its first second; Redis counts again within 2 s of healing', async () => {
    let finish!: () => void;
    const running = load(new Promise<void>((resolve) => (finish = resolve)));
    const started = Date.now();
    await sleep(5_000);
    proxy.partition();
    const partitionedAt = Date.now();
    await sleep(6_000);
    // Degraded, not down: the gauge says so, /health still answers 200 with its record.
    const degradedWhilePartitioned = await redisDegraded();
    const healthWhilePartitioned = (await server.get('/health')).status;
    proxy.heal();
    const healedAt = Date.now();
    // One request per fresh key every 100 ms: each key's first reservation shows which store took it.
    let backOnRedisMs: number | null = null;
    for (const key of probeKeys) {
      const answer = await server.get('/v1/titles/' + SERVED_IDS[0], auth(key));
      expect(answer.status).toBe(200);
      if ((await direct.exists(COUNTER_PREFIX + key.id)) === 1) {
        backOnRedisMs = Date.now() - healedAt;
        break;
      }
      await sleep(100);
    }
    await sleep(3_000);
    finish();
    const samples = await running;
    const degradedAfterHealing = await redisDegraded();

    const normal = between(samples, started + 2_000, partitionedAt);
    const firstSecond = between(samples, partitionedAt, partitionedAt + 1_000);
    const partitioned = between(samples, partitionedAt + 1_000, healedAt);
    const recovered = between(samples, healedAt + 2_000, Date.now());
    const figures = {
      requests: samples.length,
      statuses: [...new Set(samples.map((s) => s.status))],
      normal: { n: normal.length, p50: percentile(normal, 50), p95: percentile(normal, 95) },
      firstSecond: { n: firstSecond.length, p50: percentile(firstSecond, 50), max: Math.max(...firstSecond) },
      partitioned: {
        n: partitioned.length,
        p50: percentile(partitioned, 50),
        p95: percentile(partitioned, 95),
      },
      recovered: { n: recovered.length, p50: percentile(recovered, 50) },
      backOnRedisMs,
    };
    console.info(`Redis partition: ${JSON.stringify(figures)}`);

    expect(figures.statuses).toEqual([200]);
    expect(partitioned.length).toBeGreaterThan(200);
    // Twice the normal median, with 2 ms for the clock's granularity at single-digit medians.
    expect(figures.partitioned.p50).toBeLessThanOrEqual(2 * figures.normal.p50 + 2);
    expect(backOnRedisMs).not.toBeNull();
    expect(backOnRedisMs).toBeLessThanOrEqual(2_000);
    expect({ degradedWhilePartitioned, healthWhilePartitioned, degradedAfterHealing }).toEqual({
      degradedWhilePartitioned: '1',
      healthWhilePartitioned: 200,
      degradedAfterHealing: '0',
    });
  }, 60_000);

  it('a key accepts at most its limit plus one block in a minute across a Redis kill, fallback and empty restart', async () => {
    const [key] = limited;
    const accepted = async (n: number) => {
      let ok = 0;
      for (let i = 0; i < n; i++) {
        const answer = await server.get('/v1/titles/' + SERVED_IDS[1], auth(key));
        expect([200, 429]).toContain(answer.status);
        if (answer.status === 200) ok++;
      }
      return ok;
    };
    const windowStarted = Date.now();
    const onRedis = await accepted(20);
    await redis.kill();
    const onFallback = await accepted(40);
    await redis.start();
    // The breaker probes every 250 ms; a fresh key's counter in Redis shows it counts there again.
    await sleep(2_000);
    const afterRestart = await accepted(60);
    const elapsedMs = Date.now() - windowStarted;
    const restartedCounter = await direct.hget(COUNTER_PREFIX + key.id, 'reserved');
    const pg = new Client({ connectionString: databaseUrl });
    await pg.connect();
    const fallbackCounter = await pg
      .query<{ reserved: string }>('SELECT reserved FROM rate_counters WHERE key = $1', [`minute:${key.id}`])
      .finally(() => pg.end());
    const total = onRedis + onFallback + afterRestart;
    console.info(
      `Redis restart within one window (${elapsedMs} ms): accepted ${onRedis} on Redis, ${onFallback} on ` +
        `PostgreSQL, ${afterRestart} on the restarted Redis = ${total} for rpm ${LIMITED_RPM}; counters: ` +
        `PostgreSQL ${fallbackCounter.rows[0]?.reserved}, restarted Redis ${restartedCounter}`,
    );
    expect(elapsedMs).toBeLessThan(50_000);
    expect(onRedis).toBe(20);
    expect(total).toBeLessThanOrEqual(LIMITED_RPM + Math.ceil(LIMITED_RPM * RESERVATION.shareOfRemaining));
    // Allowance this replica held in the failed store is dropped with it (counted, never spent).
    expect(total).toBeGreaterThanOrEqual(LIMITED_RPM - Math.ceil(LIMITED_RPM * RESERVATION.shareOfRemaining));
  }, 60_000);
});
