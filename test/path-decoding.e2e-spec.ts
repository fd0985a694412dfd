import { FIXTURE_TITLES } from './support/catalog-fixture';
import { type TestApp, createTestApp } from './support/test-app';
import { awaitRoomInMinute } from './support/timing';

/**
 * A bad percent-escape in the path meets the contract's order of checks: route,
 * authentication, per-minute limit and quota, then validation.
 */
describe('percent-escapes in the path', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
    await t.writer.replaceCatalog({ titles: FIXTURE_TITLES });
  });
  afterAll(() => t.close());

  const errorOf = (res: {
    body: { error: { code: string; request_id: string } };
    headers: Record<string, string>;
  }) => {
    expect(res.body.error.request_id).toBe(res.headers['x-request-id']);
    return res.body.error.code;
  };

  it.each(['/v1/titles/%ZZ', '/v1/titles/tt1%E0%A4', '/v1/titles/tt1%'])(
    '%s without a key is 401 MISSING_API_KEY, with an unknown key 401 INVALID_API_KEY',
    async (path) => {
      const missing = await t.http().get(path).expect(401);
      expect(errorOf(missing)).toBe('MISSING_API_KEY');
      const unknown = await t
        .http()
        .get(path)
        .set('Authorization', `Bearer mov_live_${'A'.repeat(43)}`)
        .expect(401);
      expect(errorOf(unknown)).toBe('INVALID_API_KEY');
      expect(unknown.headers['x-ratelimit-limit']).toBeUndefined();
    },
  );

  it('with a valid key is 400 VALIDATION_ERROR carrying the rate-limit headers, and counted', async () => {
    const { key } = await t.apiKeys.create({ name: 'escapes', rpm: 2, monthlyQuota: 100 });
    await awaitRoomInMinute();
    for (let i = 0; i < 2; i++) {
      const res = await t.http().get('/v1/titles/%ZZ').set('Authorization', `Bearer ${key}`).expect(400);
      expect(errorOf(res)).toBe('VALIDATION_ERROR');
      expect(res.headers['x-ratelimit-limit']).toBe('2');
      expect(res.headers['x-ratelimit-remaining']).toBe('1');
    }
    // Both counted: the third request of the minute is over the limit.
    const limited = await t.http().get('/v1/titles/%ZZ').set('Authorization', `Bearer ${key}`).expect(429);
    expect(errorOf(limited)).toBe('RATE_LIMITED');
  });

  it.each(['/v1%E0%A4', '/favicon.ico%E0%A4', '/v1/%ZZ', '/health%ZZ'])(
    '%s is 404 ROUTE_NOT_FOUND with only X-Request-Id, key or not',
    async (path) => {
      const res = await t.http().get(path).expect(404);
      expect(errorOf(res)).toBe('ROUTE_NOT_FOUND');
      const keyed = await t.get(path).expect(404);
      expect(errorOf(keyed)).toBe('ROUTE_NOT_FOUND');
      expect(keyed.headers['x-ratelimit-limit']).toBeUndefined();
    },
  );

  // `/v1/titles/%` is the fuzzer's shrunk counterexample before the fix.
  it.each(['/v1/titles/%', '/v1/titles/tt1%E0%A4', '/v1/titles/%ZZ?x=1'])(
    '%s with a valid key is 400 with the rate-limit headers',
    async (path) => {
      const res = await t.get(path).expect(400);
      expect(errorOf(res)).toBe('VALIDATION_ERROR');
      expect(res.headers['x-ratelimit-limit']).toBeDefined();
      expect(res.headers['x-ratelimit-remaining']).toBeDefined();
    },
  );

  it('still decodes valid escapes in the path', async () => {
    const res = await t.get('/v1/titles/tt%30111161').expect(200);
    expect(res.body.data[0].imdb_id).toBe('tt0111161');
  });
});
