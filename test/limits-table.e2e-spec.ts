import type { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import { DataSource, type MigrationInterface, type QueryRunner } from 'typeorm';
import { AppModule } from '../src/app.module';
import { APP_OPTIONS, configureApp, createHttpAdapter } from '../src/app.setup';
import { ApiKeyService } from '../src/auth/api-key.service';
import { LIMITS, type LimitRow, type LimitWindow } from '../src/limits/limit-table';
import { CatalogWriter } from '../src/catalog/store/catalog-writer';
import { loadConfig } from '../src/config/app-config';
import { LIMIT_TABLE } from '../src/limits/limit-table.token';
import { FIXTURE_TITLES } from './support/catalog-fixture';
import { type TestDatabase, createTestDatabase } from './support/test-database';

const DAY_MS = 86_400_000;
const nextUtcDay = (now: number) => (Math.floor(now / DAY_MS) + 1) * DAY_MS;

/** The UTC calendar day: a window ends at the next 00:00:00 UTC, whenever it started. */
const UTC_DAY_WINDOW: LimitWindow = {
  ttlMs: (now) => nextUtcDay(now) - now,
  seconds: () => DAY_MS / 1000,
  calendarEnd: nextUtcDay,
};

/**
 * A third limit, per UTC day: one row. Its limit is read from the key's policy (a 30th of the
 * month). It borrows RATE_LIMITED (a real one would add its own code to the error catalogue), told
 * apart from the minute's by its Retry-After: the seconds to the next UTC day.
 */
const DAY: LimitRow = {
  name: 'day',
  window: UTC_DAY_WINDOW,
  limit: {
    of: (key) => Math.ceil(key.monthlyQuota / 30),
    field: 'daily_quota',
    description: 'Requests per UTC day',
  },
  refusal: 'RATE_LIMITED',
  retryAfterSeconds: (now) => Math.max(1, Math.ceil((nextUtcDay(now) - now) / 1000)),
  counters: { table: 'day_counters', redis: false },
  quota: true,
};

/** ...plus its migration: a counter table like the minute's and the month's. */
class DayCounters implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE day_counters (
        key text PRIMARY KEY,
        reserved bigint NOT NULL CONSTRAINT day_counters_reserved_not_negative CHECK (reserved >= 0),
        last_grant bigint NOT NULL,
        expires_at timestamptz NOT NULL
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE day_counters`);
  }
}

/** The minute, then the day, then the month: the order of checks is the table's. */
const THREE_LIMITS = [LIMITS[0], DAY, LIMITS[1]];

describe('a third limit is one row of the limit table plus its migration', () => {
  let db: TestDatabase;
  let app: NestExpressApplication;
  let apiKeys: ApiKeyService;

  beforeAll(async () => {
    db = await createTestDatabase();
    const config = {
      ...loadConfig({ APP_ENV: 'test', LOG_LEVEL: 'silent' }),
      firstRunSetup: false,
      database: db.config,
    };
    const moduleRef = await Test.createTestingModule({ imports: [AppModule.forRoot(config)] })
      .overrideProvider(LIMIT_TABLE)
      .useValue(THREE_LIMITS)
      .compile();
    app = moduleRef.createNestApplication<NestExpressApplication>(createHttpAdapter(), APP_OPTIONS);
    configureApp(app);
    await app.init();
    const runner = app.get(DataSource).createQueryRunner();
    try {
      await new DayCounters().up(runner);
    } finally {
      await runner.release();
    }
    await app.get(CatalogWriter).replaceCatalog({ titles: FIXTURE_TITLES });
    apiKeys = app.get(ApiKeyService);
  });

  afterAll(async () => {
    await app.close();
    await db.drop();
  });

  const withKey = (path: string, key: string) =>
    request(app.getHttpServer()).get(path).set('Authorization', `Bearer ${key}`);

  it('counts the day, refuses with its code and headers, and reports it in the RateLimit fields and /v1/usage', async () => {
    // A day of 3 requests (a 30th of 90), far below the minute and the month.
    const { key, summary } = await apiKeys.create({ name: 'daily', rpm: 100, monthlyQuota: 90 });

    for (let remaining = 2; remaining >= 0; remaining--) {
      const ok = await withKey('/v1/movies', key).expect(200);
      expect(ok.headers).toMatchObject({ 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '99' });
      expect(ok.headers['ratelimit-policy']).toMatch(
        /^"minute";q=100;w=60, "day";q=3;w=86400, "month";q=90;w=\d+$/,
      );
      expect(ok.headers['ratelimit']).toMatch(
        new RegExp(`^"minute";r=\\d+;t=\\d+, "day";r=${remaining};t=\\d+, "month";r=\\d+;t=\\d+$`),
      );
    }

    const refused = await withKey('/v1/movies', key).expect(429);
    const secondsToNextDay = Math.ceil((nextUtcDay(Date.now()) - Date.now()) / 1000);
    expect(refused.body.error.code).toBe('RATE_LIMITED');
    expect(refused.headers).toMatchObject({ 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '0' });
    // The day's Retry-After, not the minute's 60 (unless the day really ends within the minute).
    expect(Math.abs(Number(refused.headers['retry-after']) - secondsToNextDay)).toBeLessThanOrEqual(1);
    expect(refused.headers['ratelimit']).toMatch(
      /^"minute";r=96;t=\d+, "day";r=0;t=\d+, "month";r=87;t=\d+$/,
    );

    // The refusal was counted in the minute (checked first), not in the month (checked after the day);
    // /v1/usage is free of every quota, the day included, so it is answered at an exhausted day.
    const usage = await withKey('/v1/usage', key).expect(200);
    expect(usage.body.data[0]).toEqual({
      key_id: summary.id,
      rpm: 100,
      daily_quota: 3,
      monthly_quota: 90,
      minute: { used: 5, remaining: 95, resets_at: expect.any(String) },
      day: { used: 3, remaining: 0, resets_at: new Date(nextUtcDay(Date.now())).toISOString() },
      month: { used: 3, remaining: 87, resets_at: expect.any(String) },
    });
    expect(Object.keys(usage.body.data[0])).toEqual([
      'key_id',
      'rpm',
      'daily_quota',
      'monthly_quota',
      'minute',
      'day',
      'month',
    ]);
  });

  it('keeps the day in its own counter table, one row per key', async () => {
    const { key, summary } = await apiKeys.create({ name: 'stored', rpm: 100, monthlyQuota: 900 });
    await withKey('/v1/movies', key).expect(200);
    const rows = await app
      .get(DataSource)
      .query(`SELECT key, reserved::int AS reserved FROM day_counters WHERE key = $1`, [`day:${summary.id}`]);
    expect(rows).toEqual([{ key: `day:${summary.id}`, reserved: expect.any(Number) }]);
    expect(rows[0].reserved).toBeGreaterThanOrEqual(1);
  });
});
