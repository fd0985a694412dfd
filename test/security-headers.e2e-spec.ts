import type { Response } from 'supertest';
import { FIXTURE_TITLES } from './support/catalog-fixture';
import { type TestApp, createTestApp } from './support/test-app';

/** The headers OWASP's REST cheat sheet asks of every API answer. */
function expectSecurityHeaders(res: Response): void {
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(
    String(res.headers['content-security-policy'])
      .split(';')
      .map((directive) => directive.trim()),
  ).toEqual(["default-src 'none'", "frame-ancestors 'none'"]);
  expect(res.headers['referrer-policy']).toBe('no-referrer');
}

describe('security headers on every answer (plain HTTP)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
    await t.writer.replaceCatalog({ titles: FIXTURE_TITLES }, { catalogVersion: 'fixture-headers' });
  });
  afterAll(() => t.close());

  it('on a title: the private cache policy stays, no HSTS over plain HTTP', async () => {
    const res = await t.get('/v1/titles/tt0111161').expect(200);
    expectSecurityHeaders(res);
    expect(res.headers['cache-control']).toBe('private, max-age=0, must-revalidate');
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });

  it('on a list and a search: their cache policy stays', async () => {
    for (const path of ['/v1/movies', '/v1/search?q=office']) {
      const res = await t.get(path).expect(200);
      expectSecurityHeaders(res);
      expect(res.headers['cache-control']).toBe('private, max-age=0, must-revalidate');
    }
  });

  it.each([
    ['/health', 200],
    ['/openapi.json', 200],
    ['/v1/nothing-here', 404],
    ['/v1/titles/%ZZ', 401],
  ])('on %s (%i): no-store', async (path, status) => {
    const res = await t.http().get(path).expect(status);
    expectSecurityHeaders(res);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('on a 401 for a bad key and on a 304', async () => {
    const refused = await t
      .http()
      .get('/v1/titles/tt0111161')
      .set('Authorization', 'Bearer nope')
      .expect(401);
    expectSecurityHeaders(refused);
    expect(refused.headers['cache-control']).toBe('no-store');
    const first = await t.get('/v1/titles/tt0111161').expect(200);
    const unchanged = await t
      .get('/v1/titles/tt0111161')
      .set('If-None-Match', first.headers.etag)
      .expect(304);
    expectSecurityHeaders(unchanged);
  });

  it('the OpenAPI document names the HTTPS form of the base URL after its own origin', async () => {
    const res = await t.http().get('/openapi.json').expect(200);
    // First the origin the document came from (a page's "try" keeps its scheme), then the HTTPS
    // form clients should use; a plain-HTTP entry for a local run may follow.
    expect(res.body.servers[0]).toEqual(expect.objectContaining({ url: '/' }));
    expect(res.body.servers[1]).toEqual(expect.objectContaining({ url: 'https://{host}' }));
    expect(res.body.servers.slice(2)).toEqual(
      res.body.servers.slice(2).map(() => expect.objectContaining({ url: 'http://{host}' })),
    );
    expect(res.body.servers[1].variables.host.default).toEqual(expect.any(String));
  });

  it('a forged X-Forwarded-Proto does not bring HSTS (no proxy is trusted by default)', async () => {
    const res = await t.get('/health').set('X-Forwarded-Proto', 'https').expect(200);
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });
});
