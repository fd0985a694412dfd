import type { AddressInfo } from 'node:net';
import { DrainState } from '../src/server/drain-state';
import { FIXTURE_TITLES } from './support/catalog-fixture';
import { freePort } from './support/free-port';
import { type TestApp, createTestApp } from './support/test-app';

interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
}

/**
 * HEALTH_PORT: a listener for probes, apart from the API port's connection queue, answering GET
 * /health exactly as the API port does (ready only once the API port listens, 500 while draining),
 * and nothing else.
 */
describe('the health port', () => {
  let t: TestApp;
  let healthPort: number;
  let api: string;
  const probe = async (path = '/health', init: RequestInit = {}): Promise<Answer> => {
    const res = await fetch(`http://127.0.0.1:${healthPort}${path}`, init);
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
  };

  beforeAll(async () => {
    healthPort = await freePort();
    t = await createTestApp({ healthPort });
    await t.writer.replaceCatalog({ titles: FIXTURE_TITLES }, { catalogVersion: 'probe-1' });
  });
  afterAll(() => t.close());

  it('is not ready before the API port listens', async () => {
    const res = await probe();
    expect(res.status).toBe(500);
    expect(res.body).toEqual({
      error: {
        code: 'INTERNAL_ERROR',
        message: 'The service is starting.',
        request_id: res.headers.get('x-request-id'),
      },
    });
    await t.app.listen(0, '127.0.0.1');
    api = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
  });

  it("answers /health as the API port does, with the client's request id and the common headers", async () => {
    const onApi = await fetch(`${api}/health`);
    const res = await probe('/health?ignored=1', { headers: { 'X-Request-Id': 'probe-7' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...((await onApi.json()) as object), meta: { request_id: 'probe-7' } });
    expect((res.body as { data: Array<{ catalog: object }> }).data[0].catalog).toMatchObject({
      catalog_version: 'probe-1',
      title_count: FIXTURE_TITLES.length,
    });
    expect(res.headers.get('x-request-id')).toBe('probe-7');
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    for (const name of [
      'cache-control',
      'content-security-policy',
      'referrer-policy',
      'x-content-type-options',
    ]) {
      expect(res.headers.get(name)).toBe(onApi.headers.get(name));
    }
    const head = await fetch(`http://127.0.0.1:${healthPort}/health`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it('serves nothing else: the API stays on its own port', async () => {
    for (const [path, method] of [
      ['/v1/titles/tt0111161', 'GET'],
      ['/metrics', 'GET'],
      ['/health', 'POST'],
    ]) {
      const res = await probe(path, { method });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({
        error: {
          code: 'ROUTE_NOT_FOUND',
          message: 'The requested route was not found.',
          request_id: res.headers.get('x-request-id'),
        },
      });
    }
  });

  it('fails readiness once the drain starts, as the API port does', async () => {
    t.app.get(DrainState).start();
    const res = await probe();
    expect(res.status).toBe(500);
    expect((res.body as { error: { code: string } }).error.code).toBe('INTERNAL_ERROR');
    expect((await fetch(`${api}/health`)).status).toBe(500);
  });
});
