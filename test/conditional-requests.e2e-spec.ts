import request from 'supertest';
import { FIXTURE_TITLES } from './support/catalog-fixture';
import { type TestApp, createTestApp } from './support/test-app';
import { awaitRoomInMinute } from './support/timing';

/** Strong ETags from the catalog version and the request; If-None-Match → 304. */
describe('conditional requests', () => {
  let t: TestApp;
  const CONDITIONAL = [
    '/v1/titles/tt0111161',
    '/v1/movies?limit=3',
    '/v1/series',
    '/v1/search?q=the&limit=5',
  ];
  const ETAG = /^"[A-Za-z0-9_-]{27}"$/;

  beforeAll(async () => {
    t = await createTestApp();
    await t.writer.replaceCatalog({ titles: FIXTURE_TITLES }, { catalogVersion: 'etag-1' });
  });
  afterAll(() => t.close());

  const withKey = (path: string, key: string, headers: Record<string, string> = {}) =>
    request(t.app.getHttpServer()).get(path).set('Authorization', `Bearer ${key}`).set(headers);

  it('tags every catalog answer; the tag names the data, not the request id', async () => {
    for (const path of CONDITIONAL) {
      const first = await t.get(path).expect(200);
      const second = await t.get(path).expect(200);
      expect(first.headers.etag).toMatch(ETAG);
      expect(second.headers.etag).toBe(first.headers.etag);
      expect(second.body.meta.request_id).not.toBe(first.body.meta.request_id);
      const withoutRequestId = (meta: Record<string, unknown>) => ({ ...meta, request_id: undefined });
      expect({ data: second.body.data, meta: withoutRequestId(second.body.meta) }).toEqual({
        data: first.body.data,
        meta: withoutRequestId(first.body.meta),
      });
    }
    const tags = await Promise.all(CONDITIONAL.map(async (path) => (await t.get(path)).headers.etag));
    expect(new Set(tags).size).toBe(CONDITIONAL.length);
  });

  it('answers a matching If-None-Match with 304: no body, X-Request-Id and rate-limit headers kept', async () => {
    for (const path of CONDITIONAL) {
      const { etag } = (await t.get(path).expect(200)).headers;
      for (const condition of [etag, `"x", ${etag}`, `W/${etag}`, '*']) {
        const res = await t
          .get(path)
          .set('If-None-Match', condition)
          .set('X-Request-Id', 'cond-1')
          .expect(304);
        expect(res.text).toBe('');
        expect(res.headers['content-type']).toBeUndefined();
        expect(res.headers).toMatchObject({
          etag,
          'x-request-id': 'cond-1',
          'x-ratelimit-limit': '1000000',
          'x-ratelimit-remaining': '999999',
          'cache-control': 'private, max-age=0, must-revalidate',
          vary: 'Authorization',
        });
        expect(res.headers['ratelimit']).toBeDefined();
      }
    }
  });

  it('answers 200 with the body to a stale or foreign tag', async () => {
    const { etag } = (await t.get('/v1/movies?limit=3').expect(200)).headers;
    const other = await t.get('/v1/movies?limit=2').set('If-None-Match', etag).expect(200);
    expect(other.body.data).toHaveLength(2);
    const stale = await t.get('/v1/titles/tt0111161').set('If-None-Match', '"stale"').expect(200);
    expect(stale.body.data[0].imdb_id).toBe('tt0111161');
  });

  it('gives a new tag after a re-ingest, so the old one is answered 200 with the new data', async () => {
    const before = await Promise.all(CONDITIONAL.map((path) => t.get(path).expect(200)));
    const changed = FIXTURE_TITLES.map((title) =>
      title.imdbId === 'tt0111161' ? { ...title, title: 'The Shawshank Redemption (Remastered)' } : title,
    );
    await t.writer.replaceCatalog({ titles: changed }, { catalogVersion: 'etag-2' });
    for (const [i, path] of CONDITIONAL.entries()) {
      const res = await t.get(path).set('If-None-Match', before[i].headers.etag).expect(200);
      expect(res.headers.etag).toMatch(ETAG);
      expect(res.headers.etag).not.toBe(before[i].headers.etag);
      await t.get(path).set('If-None-Match', res.headers.etag).expect(304);
    }
    const title = await t.get('/v1/titles/tt0111161').expect(200);
    expect(title.body.data[0].title).toBe('The Shawshank Redemption (Remastered)');
    // The same catalog loaded again under its first version name is another load: tags follow the
    // load, not its label, so the first tags are answered 200 with new ones.
    await t.writer.replaceCatalog({ titles: FIXTURE_TITLES }, { catalogVersion: 'etag-1' });
    for (const [i, path] of CONDITIONAL.entries()) {
      const res = await t.get(path).set('If-None-Match', before[i].headers.etag).expect(200);
      expect(res.headers.etag).not.toBe(before[i].headers.etag);
    }
  });

  it('answers a repeated search from the catalog loaded since it was last asked', async () => {
    const path = '/v1/search?q=shawshank';
    const titles = (res: request.Response) => res.body.data.map((title: { title: string }) => title.title);
    const before = await t.get(path).expect(200);
    // The second ask is answered from the search cache; the next must not be, once the catalog changed.
    expect(titles(await t.get(path).expect(200))).toEqual(titles(before));
    const changed = FIXTURE_TITLES.map((title) =>
      title.imdbId === 'tt0111161' ? { ...title, title: 'The Shawshank Redemption (Remastered)' } : title,
    );
    await t.writer.replaceCatalog({ titles: changed }, { catalogVersion: 'etag-3' });
    const after = await t.get(path).expect(200);
    expect(titles(before)).toEqual(['The Shawshank Redemption']);
    expect(titles(after)).toEqual(['The Shawshank Redemption (Remastered)']);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    await t.writer.replaceCatalog({ titles: FIXTURE_TITLES }, { catalogVersion: 'etag-1' });
  });

  it('answers a repeated list page and title from the catalog loaded since they were last asked', async () => {
    const paths = ['/v1/movies?limit=20', '/v1/titles/tt0111161'];
    const shawshank = (res: request.Response) =>
      res.body.data.find((title: { imdb_id: string }) => title.imdb_id === 'tt0111161')?.title;
    const asked = async () => Promise.all(paths.map((path) => t.get(path).expect(200)));
    // Kept on the second ask, served from the caches on the third.
    await asked();
    await asked();
    const before = await asked();
    const changed = FIXTURE_TITLES.map((title) =>
      title.imdbId === 'tt0111161' ? { ...title, title: 'The Shawshank Redemption (Director’s Cut)' } : title,
    );
    await t.writer.replaceCatalog({ titles: changed }, { catalogVersion: 'etag-4' });
    const after = await asked();
    for (const [i, res] of after.entries()) {
      expect(shawshank(before[i])).toBe('The Shawshank Redemption');
      expect(shawshank(res)).toBe('The Shawshank Redemption (Director’s Cut)');
      expect(res.headers.etag).not.toBe(before[i].headers.etag);
    }
    // The new catalog's answers, once kept, are served byte for byte as read.
    await asked();
    const cached = await asked();
    expect(cached.map((res) => res.body.data)).toEqual(after.map((res) => res.body.data));
    expect(cached.map((res) => res.headers['content-length'])).toEqual(
      after.map((res) => res.headers['content-length']),
    );
    await t.writer.replaceCatalog({ titles: FIXTURE_TITLES }, { catalogVersion: 'etag-1' });
  });

  it('HEAD is GET without a body, with the same tag and 304', async () => {
    for (const path of CONDITIONAL) {
      const get = await t.get(path).expect(200);
      const head = await t.http().head(path).set('Authorization', `Bearer ${t.key}`).expect(200);
      expect(head.headers.etag).toBe(get.headers.etag);
      expect(head.text).toBeUndefined();
      await t
        .http()
        .head(path)
        .set('Authorization', `Bearer ${t.key}`)
        .set('If-None-Match', get.headers.etag)
        .expect(304);
    }
  });

  it('sends no ETag and never 304 on refusals, validation errors and other failures', async () => {
    const cases: [string, number, string | null][] = [
      ['/v1/titles/tt0000001', 404, t.key],
      ['/v1/titles/nm1', 400, t.key],
      ['/v1/movies?limit=99', 400, t.key],
      ['/v1/search?q=', 400, t.key],
      ['/v1/movies', 401, null],
    ];
    for (const [path, status, key] of cases) {
      const req = t.http().get(path).set('If-None-Match', '*');
      if (key) req.set('Authorization', `Bearer ${key}`);
      const res = await req.expect(status);
      expect(res.headers.etag).toBeUndefined();
      expect(res.body.error).toBeDefined();
    }
    expect((await t.get('/v1/usage').expect(200)).headers.etag).toBeUndefined();
    expect((await t.http().get('/health').expect(200)).headers.etag).toBeUndefined();
  });

  it('counts a 304 in the minute and in the month, and refuses it at either limit', async () => {
    await awaitRoomInMinute(15);
    const { key } = await t.apiKeys.create({ name: 'conditional', rpm: 5, monthlyQuota: 3 });
    const { etag } = (await withKey('/v1/movies', key).expect(200)).headers;
    const notModified = await withKey('/v1/movies', key, { 'If-None-Match': etag }).expect(304);
    expect(notModified.headers['x-ratelimit-remaining']).toBe('4');
    await withKey('/v1/movies', key, { 'If-None-Match': etag }).expect(304);
    const usage = (await withKey('/v1/usage', key).expect(200)).body.data[0];
    expect(usage.minute.used).toBe(4);
    expect(usage.month.used).toBe(3);
    const quota = await withKey('/v1/movies', key, { 'If-None-Match': etag }).expect(429);
    expect(quota.body.error.code).toBe('MONTHLY_QUOTA_EXCEEDED');

    const { key: perMinute } = await t.apiKeys.create({ name: 'conditional rpm', rpm: 1, monthlyQuota: 100 });
    await withKey('/v1/movies', perMinute).expect(200);
    const minute = await withKey('/v1/movies', perMinute, { 'If-None-Match': etag }).expect(429);
    expect(minute.body.error.code).toBe('RATE_LIMITED');
  });
});
