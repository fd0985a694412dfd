import { type TestApp, createTestApp } from './support/test-app';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('HTTP contract: routing, request ids, errors', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const http = () => t.http();

  it.each([
    ['get', '/nope'],
    ['get', '/'],
    ['get', '/v2/search'],
    ['post', '/v1/search'],
    ['put', '/health'],
    ['delete', '/v1/titles/tt0111161'],
    ['options', '/v1/movies'],
    ['patch', '/health'],
  ] as const)('answers %s %s with ROUTE_NOT_FOUND and only X-Request-Id', async (method, path) => {
    const res = await http()[method](path).expect(404);
    expect(res.body.error).toEqual({
      code: 'ROUTE_NOT_FOUND',
      message: expect.any(String),
      request_id: res.headers['x-request-id'],
    });
    expect(res.headers['x-ratelimit-limit']).toBeUndefined();
    expect(res.headers['x-powered-by']).toBeUndefined();
  });

  describe('messages that name the fix (codes and statuses as the contract fixes them)', () => {
    it('refuses per_page (the name meta uses) naming limit, and lists the accepted parameters', async () => {
      const res = await t.get('/v1/movies?per_page=5').expect(400);
      expect(res.body.error).toEqual({
        code: 'VALIDATION_ERROR',
        message:
          'Unknown query parameter "per_page": use "limit" (results per page; meta.per_page echoes it). Accepted: page, limit.',
        request_id: res.headers['x-request-id'],
      });
      expect(res.headers['x-ratelimit-limit']).toBeDefined();
      const search = await t.get('/v1/search?q=office&sort=votes').expect(400);
      expect(search.body.error.message).toBe(
        'Unknown query parameter "sort". Accepted: q, type, year, page, limit.',
      );
      const title = await t.get('/v1/titles/tt0111161?page=1').expect(400);
      expect(title.body.error.message).toBe(
        'Unknown query parameter "page": this route takes no query parameters.',
      );
    });

    it('answers POST on an existing path 404 ROUTE_NOT_FOUND saying only GET and HEAD exist', async () => {
      const res = await http().post('/v1/search').expect(404);
      expect(res.body.error).toEqual({
        code: 'ROUTE_NOT_FOUND',
        message:
          'The requested route was not found. /v1/search answers GET and HEAD only: the API is read-only.',
        request_id: res.headers['x-request-id'],
      });
      expect((await http().delete('/nope').expect(404)).body.error.message).toBe(
        'The requested route was not found. The API is read-only: every route answers GET and HEAD only.',
      );
    });

    it.each([
      ['/v1/title/tt0111161', '/v1/titles/{imdb_id}'],
      ['/search', '/v1/search'],
      ['/movies?page=2', '/v1/movies'],
      ['/swagger', '/docs'],
    ])('answers GET %s 404 ROUTE_NOT_FOUND naming %s, with a key or without', async (path, route) => {
      for (const res of [await http().get(path).expect(404), await t.get(path).expect(404)]) {
        expect(res.body.error.code).toBe('ROUTE_NOT_FOUND');
        expect(res.body.error.message).toBe(`The requested route was not found. Did you mean ${route}?`);
        expect(res.headers['x-ratelimit-limit']).toBeUndefined();
      }
    });
  });

  it('never reads a body, malformed or huge', async () => {
    const malformed = await http()
      .post('/v1/search')
      .set('Content-Type', 'application/json')
      .send('{"oops":')
      .expect(404);
    expect(malformed.body.error.code).toBe('ROUTE_NOT_FOUND');
    const huge = await http()
      .post('/health')
      .set('Content-Type', 'application/json')
      .send('x'.repeat(5_000_000));
    expect(huge.status).toBe(404);
  });

  it('echoes an acceptable client request id in the header and the body', async () => {
    const id = 'abc.DEF_123-xyz';
    const res = await t.get('/health').set('X-Request-Id', id).expect(200);
    expect(res.headers['x-request-id']).toBe(id);
    expect(res.body.meta.request_id).toBe(id);
    const longest = 'a'.repeat(128);
    expect((await t.get('/health').set('X-Request-Id', longest)).headers['x-request-id']).toBe(longest);
  });

  it.each(['a'.repeat(129), 'has space', 'semi;colon', 'ünï', ''])(
    'replaces the request id %j with a UUID',
    async (id) => {
      const res = await t.get('/nope').set('X-Request-Id', id).expect(404);
      expect(res.headers['x-request-id']).toMatch(UUID);
      expect(res.body.error.request_id).toBe(res.headers['x-request-id']);
    },
  );

  it('generates a different UUID per request', async () => {
    const [a, b] = await Promise.all([t.get('/health'), t.get('/health')]);
    expect(a.headers['x-request-id']).toMatch(UUID);
    expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
  });

  it('answers HEAD like GET, without a body', async () => {
    const res = await http().head('/health').expect(200);
    expect(res.headers['x-request-id']).toMatch(UUID);
    expect(res.text).toBeUndefined();
  });
});
