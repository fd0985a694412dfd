import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import request, { type Response } from 'supertest';
import { ERROR_CATALOGUE } from '../src/common/errors/error-catalogue';
import { Database } from '../src/database/database';
import { FIXTURE_TITLES } from './support/catalog-fixture';
import { freePort } from './support/free-port';
import { type Exchange, OpenApiConformance } from './support/openapi-conformance';
import { PrismProxy } from './support/prism-proxy';
import { type TestApp, createTestApp } from './support/test-app';
import { awaitRoomInMinute } from './support/timing';

/**
 * Well over a thousand varied exchanges (every route, GET and HEAD, every documented
 * status, the headers, every error code, odd methods and paths) are recorded, then each is checked
 * against the served OpenAPI document by a standard validator (openapi-backend, see
 * OpenApiConformance). Any mismatch fails, listed.
 */
const QUERIES = [
  'the',
  'office',
  'amelie',
  'Amélie',
  'AMÉLIE',
  'the office',
  'zzzzzz',
  '™',
  '9',
  'a\tb',
  '&',
  '?!',
  '',
  'a'.repeat(100),
  'a'.repeat(101),
  '東京',
  'ǅ',
  '\u037a',
  'x&y',
  'the shawshank redemption',
];
const SEARCH_EXTRAS = [
  '',
  '&type=movie',
  '&type=episode',
  '&year=1994',
  '&year=1799',
  '&page=2&limit=1',
  '&page=1000000',
  '&limit=0',
  '&cursor=x',
  '&page=1&page=2',
];
const LIST_QUERIES = [
  '',
  '?page=1',
  '?page=2&limit=3',
  '?page=99',
  '?limit=21',
  '?page=0',
  '?page=abc',
  '?page=1.5',
  '?page=01',
  '?x=1',
  '?page=1&page=2',
  '?limit=20',
];
const TITLE_PATHS = [
  ...FIXTURE_TITLES.map((title) => `/v1/titles/${title.imdbId}`),
  '/v1/titles/tt0000001',
  '/v1/titles/tt0111161?page=1',
  '/v1/titles/nm0000001',
  '/v1/titles/tt',
  '/v1/titles/tt12a',
  '/v1/titles/%zz',
  '/v1/titles/tt0111161%20',
];
/** Sent as X-Request-Id in turn: echoed when acceptable, otherwise replaced. */
const REQUEST_IDS = [undefined, 'abc-1.2_3', 'a'.repeat(128), 'a'.repeat(129), 'bad id', ''];
const CATALOG_PATHS = [
  ...QUERIES.flatMap((q) => SEARCH_EXTRAS.map((extra) => `/v1/search?q=${encodeURIComponent(q)}${extra}`)),
  ...TITLE_PATHS,
  ...['/v1/movies', '/v1/series'].flatMap((route) => LIST_QUERIES.map((query) => route + query)),
];
const ONE_PER_ROUTE = ['/v1/search?q=the', '/v1/titles/tt0111161', '/v1/movies', '/v1/series', '/v1/usage'];

describe('every recorded answer conforms to the OpenAPI document (openapi-backend)', () => {
  let t: TestApp;
  let conformance: OpenApiConformance;
  let document: { paths: Record<string, Record<string, { responses: object }>> };
  let prism: PrismProxy;
  const exchanges: Exchange[] = [];
  /** The same requests sent again through Prism's validating proxy, with the direct answer. */
  const proxied: (Exchange & { direct: Response })[] = [];

  const send = async (
    method: Exchange['method'],
    path: string,
    {
      key = t.key,
      headers = {},
      throughPrism = true,
    }: { key?: string | null; headers?: Record<string, string>; throughPrism?: boolean } = {},
  ): Promise<Response> => {
    const requestId = REQUEST_IDS[exchanges.length % REQUEST_IDS.length];
    const to = (client: ReturnType<typeof request>) => {
      const req = client[method.toLowerCase() as 'get'](path).set(headers);
      if (key !== null) req.set('Authorization', `Bearer ${key}`);
      if (requestId !== undefined) req.set('X-Request-Id', requestId);
      return req;
    };
    const res = await to(t.http());
    exchanges.push({ method, path, res });
    // Through Prism too, but not HEAD (Prism 5.14 reads an upstream answer with a JSON
    // Content-Type as JSON, fails on HEAD's empty body and answers 500 itself) nor a malformed
    // percent-escape in the path (an uncaught URIError ends Prism's process).
    if (throughPrism && method !== 'HEAD' && !/%(?![0-9A-Fa-f]{2})/.test(path)) {
      proxied.push({ method, path, res: await to(request(prism.baseUrl)), direct: res });
    }
    return res;
  };
  const both = async (path: string, options?: Parameters<typeof send>[2]) => {
    const res = await send('GET', path, options);
    await send('HEAD', path, options);
    return res;
  };

  beforeAll(async () => {
    t = await createTestApp();
    const appPort = await freePort();
    await t.app.listen(appPort, '127.0.0.1');
    document = (await t.http().get('/openapi.json').expect(200)).body;
    conformance = await OpenApiConformance.of(document);
    prism = await PrismProxy.start(document, `http://127.0.0.1:${appPort}`);
    // Before any catalog: answers without an ETag.
    for (const path of ONE_PER_ROUTE) await both(path);
    await both('/health', { key: null });
    await t.writer.replaceCatalog({ titles: FIXTURE_TITLES }, { catalogVersion: 'conformance-1' });

    let conditional = 0;
    for (const path of [...CATALOG_PATHS, '/v1/usage', '/v1/usage?page=1']) {
      const { status, headers } = await both(path);
      // Conditional requests, in turn: the tag itself (304), a list naming it, any (*), a stale tag (200).
      if (status === 200 && headers.etag) {
        const tags = [headers.etag, `"stale", ${headers.etag}`, '*', '"stale"'][conditional++ % 4];
        await both(path, { headers: { 'If-None-Match': tags } });
      }
    }
    for (const path of ['/health', '/health?x=1']) await both(path, { key: null });

    const { key: disabled, summary } = await t.apiKeys.create({ name: 'off', rpm: 1000, monthlyQuota: 1000 });
    await t.apiKeys.setDisabled(summary.id, true);
    for (const path of [...ONE_PER_ROUTE, ...CATALOG_PATHS.filter((_, i) => i % 10 === 0)]) {
      await both(path, { key: null });
      await both(path, { key: `mov_live_${'A'.repeat(43)}` });
      await both(path, { key: 'not-a-key' });
      await both(path, { key: disabled });
      await both(path, { key: null, headers: { Authorization: `bearer ${t.key}` } });
    }

    await awaitRoomInMinute(20);
    const { key: perMinute } = await t.apiKeys.create({ name: 'rpm 1', rpm: 1, monthlyQuota: 1000 });
    const { key: monthly } = await t.apiKeys.create({ name: 'quota 1', rpm: 1000, monthlyQuota: 1 });
    // Each key's one allowed request first (not again through Prism: that would be refused); then
    // every route is refused by that limit.
    await send('GET', '/v1/usage', { key: perMinute, throughPrism: false });
    await send('GET', '/v1/movies', { key: monthly, throughPrism: false });
    for (const path of ONE_PER_ROUTE) {
      await both(path, { key: perMinute });
      await both(path, { key: monthly });
    }

    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const) {
      for (const path of ['/health', ...ONE_PER_ROUTE]) await send(method, path);
    }
    // Not '//v1/movies': the service answers it 404, but openapi-backend's router folds the slashes.
    // `/docs` and `/openapi.json` answer outside the document (docs/api.md): not sent here. `/` is an
    // unknown route like the others.
    for (const path of [
      '/',
      '/search',
      '/v1/title/tt0111161',
      '/docs/index.html',
      '/v2/movies',
      '/v1',
      '/V1/movies',
      '/v1/titles',
      '/v1/movies/x',
      '/openapi.yaml',
    ]) {
      await both(path);
    }

    const db = t.app.get(Database);
    const tables = ['catalog_state', 'titles', 'quota_counters'];
    for (const table of tables) await db.query(`ALTER TABLE ${table} RENAME TO ${table}_away`);
    try {
      await both('/health', { key: null });
      for (const path of ONE_PER_ROUTE) await both(path);
    } finally {
      for (const table of tables) await db.query(`ALTER TABLE ${table}_away RENAME TO ${table}`);
    }
  }, 300_000);
  afterAll(async () => {
    await prism?.stop();
    await t?.close();
  });

  it('recorded over a thousand exchanges', () => {
    expect(exchanges.length).toBeGreaterThanOrEqual(1000);
  });

  it('every exchange conforms', () => {
    const failures = exchanges.flatMap((exchange) =>
      conformance
        .violations(exchange)
        .map((violation) => `${exchange.method} ${exchange.path} → ${exchange.res.status}: ${violation}`),
    );
    expect(failures).toEqual([]);
  });

  it('covered every documented status of every operation, and every error code', () => {
    // `violations` records what each exchange covered.
    for (const exchange of exchanges) conformance.violations(exchange);
    const documented = Object.entries(document.paths).flatMap(([route, item]) =>
      Object.entries(item).flatMap(([method, operation]) =>
        Object.keys(operation.responses).map((status) => `${method.toUpperCase()} ${route} ${status}`),
      ),
    );
    const covered = [...conformance.covered].filter((entry) => !entry.includes('(no operation)'));
    expect(covered.sort()).toEqual(documented.sort());
    const codes = new Set(exchanges.map(({ res }) => res.body?.error?.code).filter(Boolean));
    expect([...codes].sort()).toEqual(Object.keys(ERROR_CATALOGUE).sort());
  });

  it('Stoplight Prism found nothing in any answer it proxied', () => {
    expect(proxied.length).toBeGreaterThanOrEqual(500);
    const found = proxied.flatMap(({ method, path, res }) =>
      PrismProxy.violations(res.headers)
        .filter(({ location }) => location[0] !== 'request')
        .map((v) => `${method} ${path} → ${res.status}: ${v.location.join('.')} ${v.message}`),
    );
    expect(found).toEqual([]);
  });

  it('Prism checked the requests: it finds what the deliberately invalid ones break', () => {
    const found = (method: string, path: string) =>
      proxied
        .filter((e) => e.method === method && e.path === path)
        .flatMap(({ res }) => PrismProxy.violations(res.headers))
        .map(({ location, message }) => `${location.join('.')} ${message}`);
    expect(found('GET', '/v1/movies?page=0')).toContain(
      'request.query.page Request query parameter page must be >= 1',
    );
    expect(found('GET', '/v1/titles/nm0000001')).toContain(
      'request.path.imdb_id Request path parameter imdb_id must match pattern "^tt[0-9]+$"',
    );
    expect(found('GET', '/v2/movies')).toContain('request Selected route not found');
    const flagged = proxied.filter(({ res }) => PrismProxy.violations(res.headers).length > 0);
    expect(flagged.length).toBeGreaterThan(100);
  });

  it("Prism hands the client the service's own answer", () => {
    const withoutRequestIds = (text: string) => text.replace(/"request_id":"[^"]*"/g, '"request_id":""');
    const differences = proxied.flatMap(({ method, path, res, direct }) => {
      const request = `${method} ${path}`;
      // Prism re-encodes the query (`q=the%20office` is forwarded as `q=the+office`), which the
      // service tags with a different ETag: the If-None-Match sent matches the direct answer's only.
      if (direct.status === 304 && res.status === 200 && path.includes('%20')) return [];
      const names = (headers: object) =>
        Object.keys(headers)
          .filter((name) => name !== 'sl-violations')
          .sort()
          .join(', ');
      return [
        ...(res.status === direct.status ? [] : [`${request}: status ${direct.status} → ${res.status}`]),
        ...(names(res.headers) === names(direct.headers)
          ? []
          : [`${request}: headers ${names(direct.headers)} → ${names(res.headers)}`]),
        ...(res.headers['content-type'] === direct.headers['content-type']
          ? []
          : [`${request}: content-type ${direct.headers['content-type']} → ${res.headers['content-type']}`]),
        // The usage counts move with every request.
        ...(path.startsWith('/v1/usage') || withoutRequestIds(res.text) === withoutRequestIds(direct.text)
          ? []
          : [`${request}: body ${direct.text.slice(0, 120)} → ${res.text.slice(0, 120)}`]),
      ];
    });
    expect(differences).toEqual([]);
  });

  it('Prism reports an answer that breaks the document', async () => {
    // The service's recorded answer, broken, from a stand-in upstream behind a second Prism.
    const { res: title } = exchanges.find(
      (e) => e.method === 'GET' && e.path === '/v1/titles/tt0111161' && e.res.status === 200,
    )!;
    const body = structuredClone(title.body);
    body.data[0].extra = 1;
    body.data[0].id = '1';
    const headers = Object.fromEntries(
      Object.entries(title.headers).filter(
        ([name]) => !['x-ratelimit-limit', 'content-length', 'connection', 'date'].includes(name),
      ),
    );
    const upstream = createServer((_req, res) => res.writeHead(200, headers).end(JSON.stringify(body)));
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const { port } = upstream.address() as AddressInfo;
    const broken = await PrismProxy.start(document, `http://127.0.0.1:${port}`);
    try {
      const res = await request(broken.baseUrl)
        .get('/v1/titles/tt0111161')
        .set('Authorization', `Bearer ${t.key}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(body);
      const found = PrismProxy.violations(res.headers).map(
        ({ location, message }) => `${location.join('.')} ${message}`,
      );
      expect(found).toEqual([
        "response.body.data.0 Response body property data.0 must NOT have additional properties; found 'extra'",
        'response.body.data.0.id Response body property data.0.id must be integer',
        "response.header Response header must have required property 'x-ratelimit-limit'",
      ]);
    } finally {
      await broken.stop();
      upstream.closeAllConnections();
      await new Promise((resolve) => upstream.close(resolve));
    }
  }, 60_000);

  it('the validator refuses answers that break the document', () => {
    const recorded = (method: string, path: string, status: number) =>
      exchanges.find((e) => e.method === method && e.path === path && e.res.status === status)!;
    const altered = (exchange: Exchange, change: (res: Json) => void): Exchange => {
      const res = {
        ...exchange.res,
        headers: { ...exchange.res.headers },
        body: structuredClone(exchange.res.body),
      };
      change(res);
      return { ...exchange, res: res as unknown as Exchange['res'] };
    };
    const title = recorded('GET', '/v1/titles/tt0111161', 200);
    expect(conformance.violations(title)).toEqual([]);
    const refusals = (change: (res: Json) => void) =>
      conformance.violations(altered(title, change)).join('\n');
    expect(refusals((res) => (res.body.data[0].extra = 1))).toMatch(/additional properties/);
    expect(refusals((res) => (res.body.data[0].genres = []))).toMatch(/fewer than 1 items/);
    expect(refusals((res) => (res.body.data[0].id = '1'))).toMatch(/must be integer/);
    expect(refusals((res) => (res.body.data[0].poster_url = 'not a uri'))).toMatch(/format "uri"/);
    expect(refusals((res) => delete res.headers['x-ratelimit-limit'])).toMatch(
      /X-RateLimit-Limit is missing/,
    );
    expect(refusals((res) => (res.headers['x-ratelimit-remaining'] = 'many'))).toMatch(/must be integer/);
    expect(refusals((res) => (res.headers.ratelimit = 'r=1'))).toMatch(/must match pattern/);
    expect(refusals((res) => (res.status = 418))).toMatch(/status 418 is not documented/);
    const unauthorized = recorded('GET', '/v1/movies', 401);
    expect(
      conformance.violations(altered(unauthorized, (res) => (res.headers['x-ratelimit-limit'] = '5'))),
    ).toEqual(['header x-ratelimit-limit is sent but not declared']);
    const notModified = exchanges.find((e) => e.method === 'GET' && e.res.status === 304)!;
    expect(conformance.violations(altered(notModified, (res) => (res.text = '{}')))).toEqual([
      'a body where the document has none: {}',
    ]);
  });
});

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
