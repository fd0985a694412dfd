import { Database } from '../src/database/database';
import { ReplicaAllowances } from '../src/limits/replica-allowances';
import { FIXTURE_TITLES } from './support/catalog-fixture';
import { type TestApp, createTestApp } from './support/test-app';
import { awaitRoomInMinute, eventually } from './support/timing';

describe('API keys, per-minute limits and monthly quotas', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
    await t.writer.replaceCatalog({ titles: FIXTURE_TITLES });
  });
  afterAll(() => t.close());

  const withKey = (path: string, key: string) => t.http().get(path).set('Authorization', `Bearer ${key}`);
  const newKey = async (rpm: number, monthlyQuota: number) =>
    (await t.apiKeys.create({ name: `test ${rpm}/${monthlyQuota}`, rpm, monthlyQuota })).key;

  const expectOnlyRequestId = (headers: Record<string, string>) => {
    expect(headers['x-request-id']).toBeDefined();
    expect(headers['x-ratelimit-limit']).toBeUndefined();
    expect(headers['x-ratelimit-remaining']).toBeUndefined();
    expect(headers['retry-after']).toBeUndefined();
  };

  describe('authentication', () => {
    it.each([
      ['no header', undefined],
      ['an empty header', ''],
    ])('answers %s with 401 MISSING_API_KEY and only X-Request-Id', async (_case, header) => {
      const req = t.http().get('/v1/movies');
      if (header !== undefined) req.set('Authorization', header);
      const res = await req.expect(401);
      expect(res.body.error).toEqual({
        code: 'MISSING_API_KEY',
        message: expect.any(String),
        request_id: res.headers['x-request-id'],
      });
      expectOnlyRequestId(res.headers);
    });

    it.each([
      'Bearer',
      'Bearer ',
      'Basic dXNlcjpwYXNz',
      'Bearer mov_live_short',
      `Bearer mov_test_${'a'.repeat(43)}`,
      `Bearer mov_live_${'a'.repeat(42)}!`,
      `Bearer mov_live_${'A'.repeat(43)}`,
      `Token mov_live_${'A'.repeat(43)}`,
    ])('answers %j with 401 INVALID_API_KEY', async (header) => {
      const res = await t.http().get('/v1/movies').set('Authorization', header).expect(401);
      expect(res.body.error.code).toBe('INVALID_API_KEY');
      expectOnlyRequestId(res.headers);
    });

    it('names the fix in the message, and never echoes a key sent the wrong way', async () => {
      const inQuery = await t.http().get(`/v1/movies?api_key=${t.key}`).expect(401);
      expect(inQuery.body.error.code).toBe('MISSING_API_KEY');
      expect(inQuery.body.error.message).toContain('Authorization: Bearer');
      const otherScheme = await t.http().get('/v1/movies').set('Authorization', `Token ${t.key}`).expect(401);
      expect(otherScheme.body.error.code).toBe('INVALID_API_KEY');
      expect(otherScheme.body.error.message).toContain('Authorization: Bearer');
      for (const res of [inQuery, otherScheme])
        expect(JSON.stringify(res.body)).not.toContain(t.key.slice(9));
    });

    it('accepts the scheme word in any case', async () => {
      await t.http().get('/v1/movies').set('Authorization', `bearer ${t.key}`).expect(200);
      await t.http().get('/v1/movies').set('Authorization', `BEARER ${t.key}`).expect(200);
    });

    it('authenticates before validating: no key and bad parameters is 401', async () => {
      expect((await t.http().get('/v1/search?page=0&bogus=1').expect(401)).body.error.code).toBe(
        'MISSING_API_KEY',
      );
      expect((await t.http().get('/v1/titles/bad-id').expect(401)).body.error.code).toBe('MISSING_API_KEY');
    });

    it('refuses a disabled key with 403 within 10 seconds, and accepts it again once enabled', async () => {
      const { key, summary } = await t.apiKeys.create({ name: 'to disable', rpm: 1000, monthlyQuota: 1000 });
      await withKey('/v1/movies', key).expect(200);
      await t.apiKeys.setDisabled(summary.id, true);
      await eventually(async () => (await withKey('/v1/movies', key)).status === 403, 10_000);
      const res = await withKey('/v1/movies', key).expect(403);
      expect(res.body.error.code).toBe('API_KEY_DISABLED');
      expectOnlyRequestId(res.headers);
      await t.apiKeys.setDisabled(summary.id, false);
      await eventually(async () => (await withKey('/v1/movies', key)).status === 200, 10_000);
    });
  });

  describe('rate-limit headers', () => {
    it('sends the policy and limit − 1 on accepted requests, and on errors after authentication', async () => {
      const key = await newKey(50, 1000);
      for (const [path, status] of [
        ['/v1/movies', 200],
        ['/v1/search?q=the&page=abc', 400],
        ['/v1/titles/tt0000000', 404],
      ] as const) {
        const res = await withKey(path, key).expect(status);
        expect(res.headers['x-ratelimit-limit']).toBe('50');
        expect(res.headers['x-ratelimit-remaining']).toBe('49');
        expect(res.headers['retry-after']).toBeUndefined();
      }
    });
  });

  describe('routing and the order of checks', () => {
    it.each(['/V1/MOVIES', '/v1/Movies', '/V1/titles/tt0111161', '/HEALTH'])(
      'treats paths as case-sensitive: %s is an unknown route, 404 ROUTE_NOT_FOUND without a key',
      async (path) => {
        const res = await t.http().get(path).expect(404);
        expect(res.body.error.code).toBe('ROUTE_NOT_FOUND');
        // The message says why.
        expect(res.body.error.message).toContain('Paths are case-sensitive and lowercase');
        expectOnlyRequestId(res.headers);
        const withValidKey = await withKey(path, t.key).expect(404);
        expect(withValidKey.body.error.code).toBe('ROUTE_NOT_FOUND');
        expectOnlyRequestId(withValidKey.headers);
      },
    );

    it('answers an unknown route with 404 ROUTE_NOT_FOUND naming the route it was likely meant for', async () => {
      const res = await t.http().get('/v1/title/tt0111161').expect(404);
      expect(res.body.error).toEqual({
        code: 'ROUTE_NOT_FOUND',
        message: 'The requested route was not found. Did you mean /v1/titles/{imdb_id}?',
        request_id: res.headers['x-request-id'],
      });
      expectOnlyRequestId(res.headers);
      const other = await t.http().get('/v1/nothing').expect(404);
      expect(other.body.error.message).toBe(
        'The requested route was not found. The routes are listed at /docs and /openapi.json.',
      );
    });

    it('checks the key before the limits: a disabled or unknown key is refused without being counted', async () => {
      const storage = t.app.get(ReplicaAllowances);
      const increment = jest.spyOn(storage, 'increment');
      try {
        await t
          .http()
          .get('/v1/movies')
          .set('Authorization', `Bearer mov_live_${'Z'.repeat(43)}`)
          .expect(401);
        expect(increment).not.toHaveBeenCalled();
      } finally {
        increment.mockRestore();
      }
    });

    it('counts the minute, then the month; a minute refusal never reaches the month', async () => {
      const key = await newKey(2, 1000);
      const storage = t.app.get(ReplicaAllowances);
      const increment = jest.spyOn(storage, 'increment');
      try {
        await awaitRoomInMinute();
        const statuses = [];
        for (let i = 0; i < 4; i++) statuses.push((await withKey('/v1/movies', key)).status);
        expect(statuses).toEqual([200, 200, 429, 429]);
        expect(increment.mock.calls.map((call) => call[4])).toEqual([
          'minute',
          'month',
          'minute',
          'month',
          'minute',
          'minute',
        ]);
      } finally {
        increment.mockRestore();
      }
    });

    it('does not meter /health', async () => {
      const storage = t.app.get(ReplicaAllowances);
      const increment = jest.spyOn(storage, 'increment');
      try {
        const res = await t.http().get('/health').set('Authorization', `Bearer ${t.key}`).expect(200);
        expect(res.headers['x-ratelimit-limit']).toBeUndefined();
        expect(increment).not.toHaveBeenCalled();
      } finally {
        increment.mockRestore();
      }
    });
  });

  describe('rate-limit headers on failures after authentication', () => {
    it('sends them on a 500 INTERNAL_ERROR from the handler', async () => {
      const key = await newKey(40, 1000);
      const db = t.app.get(Database);
      await db.query('ALTER TABLE titles RENAME TO titles_away');
      try {
        // A page no test asks for elsewhere: asked pages may be answered from the list cache.
        const res = await withKey('/v1/movies?page=977', key).expect(500);
        expect(res.body.error.code).toBe('INTERNAL_ERROR');
        expect(res.headers['x-ratelimit-limit']).toBe('40');
        expect(res.headers['x-ratelimit-remaining']).toBe('39');
        expect(res.headers['retry-after']).toBeUndefined();
      } finally {
        await db.query('ALTER TABLE titles_away RENAME TO titles');
      }
    });
  });

  describe('per-minute limit', () => {
    it('accepts exactly the policy per minute, then 429 RATE_LIMITED with Retry-After 60, before validation', async () => {
      const key = await newKey(3, 1000);
      await awaitRoomInMinute();
      for (let i = 0; i < 3; i++) await withKey('/v1/movies', key).expect(200);
      const res = await withKey('/v1/search?q=&bogus=1', key).expect(429);
      expect(res.body.error).toEqual({
        code: 'RATE_LIMITED',
        message: expect.any(String),
        request_id: res.headers['x-request-id'],
      });
      expect(res.headers).toMatchObject({
        'x-ratelimit-limit': '3',
        'x-ratelimit-remaining': '0',
        'retry-after': '60',
      });
    });

    it('counts one window per key across all routes, HEAD included', async () => {
      const key = await newKey(2, 1000);
      await awaitRoomInMinute();
      await withKey('/v1/series', key).expect(200);
      await t.http().head('/v1/movies').set('Authorization', `Bearer ${key}`).expect(200);
      await withKey('/v1/titles/tt0111161', key).expect(429);
    });
  });

  describe('monthly quota', () => {
    it('counts every request that passed the minute, whatever its status, then refuses with seconds to next month', async () => {
      const key = await newKey(100, 3);
      await withKey('/v1/movies', key).expect(200);
      await withKey('/v1/search?q=', key).expect(400);
      await withKey('/v1/titles/tt0000000', key).expect(404);
      const res = await withKey('/v1/movies', key).expect(429);
      expect(res.body.error.code).toBe('MONTHLY_QUOTA_EXCEEDED');
      expect(res.headers['x-ratelimit-limit']).toBe('100');
      expect(res.headers['x-ratelimit-remaining']).toBe('0');
      const now = new Date();
      const expected = (Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1) - now.getTime()) / 1000;
      expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(Math.floor(expected) - 5);
      expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(Math.ceil(expected) + 5);
    });

    it('checks the quota before validation, and still counts quota refusals in the minute', async () => {
      const key = await newKey(3, 1);
      await awaitRoomInMinute();
      await withKey('/v1/movies', key).expect(200);
      expect((await withKey('/v1/search?bogus=1', key).expect(429)).body.error.code).toBe(
        'MONTHLY_QUOTA_EXCEEDED',
      );
      expect((await withKey('/v1/movies', key).expect(429)).body.error.code).toBe('MONTHLY_QUOTA_EXCEEDED');
      const limited = await withKey('/v1/movies', key).expect(429);
      expect(limited.body.error.code).toBe('RATE_LIMITED');
      expect(limited.headers['retry-after']).toBe('60');
    });
  });

  describe('GET /v1/usage and the RateLimit fields', () => {
    const FIELDS = /^"minute";r=(\d+);t=(\d+), "month";r=(\d+);t=(\d+)$/;
    const parse = (value: string) => {
      const match = FIELDS.exec(value);
      expect(match).not.toBeNull();
      const [, minuteR, minuteT, monthR, monthT] = match!.map(Number);
      return { minute: { r: minuteR, t: minuteT }, month: { r: monthR, t: monthT } };
    };

    it('reports the standing, counts in the minute but not the month, and answers at an exhausted quota', async () => {
      const { key, summary } = await t.apiKeys.create({ name: 'usage', rpm: 20, monthlyQuota: 5 });
      await awaitRoomInMinute(15);
      await withKey('/v1/movies', key).expect(200);
      await withKey('/v1/search?q=', key).expect(400);
      await withKey('/v1/titles/tt0000000', key).expect(404);
      const first = await withKey('/v1/usage', key).expect(200);
      expect(first.body).toEqual({
        data: [
          {
            key_id: summary.id,
            rpm: 20,
            monthly_quota: 5,
            minute: { used: 4, remaining: 16, resets_at: expect.any(String) },
            month: { used: 3, remaining: 2, resets_at: expect.any(String) },
          },
        ],
        meta: { request_id: first.headers['x-request-id'] },
      });
      const now = new Date();
      expect(first.body.data[0].month.resets_at).toBe(
        new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString(),
      );
      const minuteReset = Date.parse(first.body.data[0].minute.resets_at) - Date.now();
      expect(minuteReset).toBeGreaterThan(0);
      expect(minuteReset).toBeLessThanOrEqual(60_000);
      expect(first.headers).toMatchObject({ 'x-ratelimit-limit': '20', 'x-ratelimit-remaining': '19' });

      await withKey('/v1/movies', key).expect(200);
      await withKey('/v1/movies', key).expect(200);
      expect((await withKey('/v1/movies', key).expect(429)).body.error.code).toBe('MONTHLY_QUOTA_EXCEEDED');
      const exhausted = await withKey('/v1/usage', key).expect(200);
      expect(exhausted.body.data[0]).toMatchObject({
        minute: { used: 8, remaining: 12 },
        month: { used: 5, remaining: 0 },
      });
      const fields = parse(exhausted.headers['ratelimit']);
      expect(fields.minute.r).toBe(12);
      expect(fields.month.r).toBe(0);
      expect(exhausted.headers['ratelimit-policy']).toMatch(/^"minute";q=20;w=60, "month";q=5;w=\d+$/);
    });

    it('sends RateLimit fields that agree with /v1/usage on every response after authentication', async () => {
      const key = await newKey(30, 1000);
      await awaitRoomInMinute(15);
      for (const [path, status] of [
        ['/v1/movies', 200],
        ['/v1/search?q=&x=1', 400],
        ['/v1/titles/tt0000000', 404],
      ] as const) {
        const res = await withKey(path, key).expect(status);
        const fields = parse(res.headers['ratelimit']);
        const usage = (await withKey('/v1/usage', key).expect(200)).body.data[0];
        // The usage request itself took one more from the minute.
        expect(fields.minute.r).toBe(usage.minute.remaining + 1);
        expect(fields.month.r).toBe(usage.month.remaining);
        expect(fields.minute.t).toBeLessThanOrEqual(60);
      }
      const answer = await t.get('/v1/movies').expect(200);
      expect(answer.headers['cache-control']).toBe('private, max-age=0, must-revalidate');
      expect(answer.headers['vary']).toBe('Authorization');
      const unauthenticated = await t.http().get('/v1/movies').expect(401);
      expect(unauthenticated.headers['ratelimit']).toBeUndefined();
      expect(unauthenticated.headers['ratelimit-policy']).toBeUndefined();
    });

    it('refuses unknown query parameters on /v1/usage, after authentication', async () => {
      expect((await t.http().get('/v1/usage?x=1').expect(401)).body.error.code).toBe('MISSING_API_KEY');
      expect((await t.get('/v1/usage?x=1').expect(400)).body.error.code).toBe('VALIDATION_ERROR');
    });
  });
});
