import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Response } from 'supertest';
import { DataSource } from 'typeorm';
import { KnownRoutes } from '../src/common/routing/known-routes';
import { Database } from '../src/database/database';
import { FIXTURE_TITLES } from './support/catalog-fixture';
import { OpenApiConformance } from './support/openapi-conformance';
import { type TestApp, createTestApp } from './support/test-app';
import { awaitRoomInMinute } from './support/timing';

const run = promisify(execFile);
const BIN = join(__dirname, '..', 'node_modules', '.bin');
/**
 * The service's own routes. The checks that hold for every route walk the document's paths instead
 * (`ROUTES`), so a module added in `app.module.ts` (docs/extending.md) is checked and breaks nothing.
 */
const SERVICE_ROUTES = [
  '/health',
  '/v1/search',
  '/v1/titles/{imdb_id}',
  '/v1/movies',
  '/v1/series',
  '/v1/usage',
];
/** The service's routes that answer conditional requests (ETag, If-None-Match, 304). */
const CONDITIONAL_ROUTES = ['/v1/search', '/v1/titles/{imdb_id}', '/v1/movies', '/v1/series'];
/** One concrete request per /v1 route that would succeed with a good key. */
const V1_REQUESTS = ['/v1/search?q=office', '/v1/titles/tt0111161', '/v1/movies', '/v1/series'];

/** The security headers every answer carries (src/server/security-headers.ts), Cache-Control aside. */
const SECURITY_HEADERS = ['Content-Security-Policy', 'Referrer-Policy', 'X-Content-Type-Options'];

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('OpenAPI document at /openapi.json', () => {
  let t: TestApp;
  let document: Json;
  let conformance: OpenApiConformance;
  let workDir: string;
  /** Every path of the document. */
  let ROUTES: string[];

  beforeAll(async () => {
    t = await createTestApp();
    await t.writer.replaceCatalog({ titles: FIXTURE_TITLES }, { catalogVersion: 'openapi-1' });
    const res = await t.http().get('/openapi.json').expect(200);
    expect(res.headers['x-request-id']).toBeDefined();
    document = res.body;
    ROUTES = Object.keys(document.paths);
    conformance = await OpenApiConformance.of(res.body);
    workDir = mkdtempSync(join(tmpdir(), 'catalog-openapi-'));
    writeFileSync(join(workDir, 'openapi.json'), JSON.stringify(document));
  }, 120_000);
  afterAll(async () => {
    await t.close();
    rmSync(workDir, { recursive: true, force: true });
  });

  /** GETs `path` with the given Authorization (the test key by default) and checks the answer. */
  const checked = async (
    path: string,
    expectedStatus: number,
    key: string | null = t.key,
    headers: Record<string, string> = {},
  ): Promise<Response> => {
    const req = t.http().get(path).set(headers);
    if (key !== null) req.set('Authorization', `Bearer ${key}`);
    const res = await req;
    expect({ path, status: res.status, body: res.body }).toMatchObject({ status: expectedStatus });
    expect({ path, violations: conformance.violations({ method: 'GET', path, res }) }).toEqual({
      path,
      violations: [],
    });
    return res;
  };
  const newKey = async (rpm: number, monthlyQuota: number) =>
    t.apiKeys.create({ name: `openapi ${rpm}/${monthlyQuota}`, rpm, monthlyQuota });

  describe('the document', () => {
    it('is a valid OpenAPI 3.1 document (@seriousme/openapi-schema-validator)', async () => {
      expect(document.openapi).toBe('3.1.0');
      const { stdout } = await run(join(BIN, 'validate-api'), [join(workDir, 'openapi.json')]);
      expect(JSON.parse(stdout)).toEqual({ valid: true });
    });

    it('uses JSON Schema 2020-12 for nullability, not the 3.0 nullable keyword', () => {
      expect(JSON.stringify(document)).not.toContain('"nullable"');
      expect(document.components.schemas.Title.properties.genres.type).toEqual(['array', 'null']);
    });

    it('documents every route and nothing else, GET and HEAD', () => {
      expect(ROUTES).toEqual(expect.arrayContaining(SERVICE_ROUTES));
      const served = t.app.get(KnownRoutes).all();
      for (const route of ROUTES) {
        expect({ route, served: served.includes(route.replace(/\{([^}]+)\}/g, ':$1')) }).toEqual({
          route,
          served: true,
        });
        const { get, head } = document.paths[route];
        expect(Object.keys(document.paths[route])).toEqual(['get', 'head']);
        // HEAD is GET without bodies: the same parameters, security and statuses and headers.
        expect(head.parameters).toEqual(get.parameters);
        expect(head.security).toEqual(get.security);
        expect(head.operationId).toBe(`${get.operationId}_head`);
        for (const [status, response] of Object.entries(get.responses as Json)) {
          expect(head.responses[status]).toEqual({
            description: response.description,
            headers: response.headers,
          });
        }
      }
    });

    it('describes every operation, names a license, its own origin first, then an https server', () => {
      for (const route of ROUTES) {
        for (const operation of Object.values(document.paths[route]) as Json[]) {
          expect(operation.summary).toEqual(expect.any(String));
          expect(operation.description).toEqual(expect.any(String));
        }
      }
      expect(document.info.license.name).toEqual(expect.any(String));
      // A relative first server: the reference page's "try" calls the origin it was served from.
      expect(document.servers.map((server: Json) => server.url)).toEqual([
        '/',
        'https://{host}',
        'http://{host}',
      ]);
    });

    it('reads X-Request-Id on every operation, any value (replaced, never refused), and echoes its pattern', () => {
      for (const route of ROUTES) {
        const { parameters, responses } = document.paths[route].get;
        const parameter = parameters.find((p: Json) => p.in === 'header' && p.name === 'X-Request-Id');
        expect(parameter).toMatchObject({ required: false, schema: { type: 'string' } });
        expect(parameter.schema.pattern).toBeUndefined();
        expect(parameter.description).toContain('replaced by a generated UUID');
        for (const response of Object.values(responses as Json)) {
          expect(response.headers['X-Request-Id'].schema).toEqual({
            type: 'string',
            pattern: '^[A-Za-z0-9._-]{1,128}$',
          });
        }
      }
    });

    it('links every page of titles to the lookup of its titles', () => {
      const lookup = document.paths['/v1/titles/{imdb_id}'].get.operationId;
      for (const route of ['/v1/search', '/v1/movies', '/v1/series']) {
        expect(Object.values(document.paths[route].get.responses['200'].links)).toEqual([
          expect.objectContaining({
            operationId: lookup,
            parameters: { imdb_id: '$response.body#/data/0/imdb_id' },
          }),
        ]);
      }
    });

    it("states q's letter-or-number rule in prose, with no pattern, and the service keeps it", async () => {
      const q = document.paths['/v1/search'].get.parameters.find((p: Json) => p.name === 'q');
      // No regular expression states the rule alike in every validator's dialect: the 400 is the truth.
      expect(q.schema.pattern).toBeUndefined();
      expect(q.description).toContain('letter or number');
      const accepted: Record<string, boolean> = {
        '&': false,
        '?!': false,
        '™': true,
        'a&': true,
        Amélie: true,
        '\u037a': false,
        [q.example]: true,
      };
      for (const [text, ok] of Object.entries(accepted)) {
        const res = await t.get(`/v1/search?q=${encodeURIComponent(text)}`);
        expect({ text, status: res.status }).toEqual({ text, status: ok ? 200 : 400 });
      }
    });

    it('gives an example for every parameter and every answer with a body', () => {
      const missing: string[] = [];
      for (const route of ROUTES) {
        const { parameters = [], responses } = document.paths[route].get;
        for (const parameter of parameters as Json[]) {
          if (parameter.example === undefined) missing.push(`${route} ${parameter.in}:${parameter.name}`);
        }
        for (const [status, response] of Object.entries(responses as Json)) {
          const media = response.content?.['application/json'];
          if (media && media.example === undefined && media.examples === undefined) {
            missing.push(`${route} ${status}`);
          }
          for (const [name, header] of Object.entries((response.headers ?? {}) as Json)) {
            if (header.example === undefined) missing.push(`${route} ${status} header ${name}`);
          }
        }
      }
      expect(missing).toEqual([]);
    });

    it('gives each error answer one example envelope per code it can answer, and knows ROUTE_NOT_FOUND', async () => {
      expect(document.components.schemas.ErrorCode.enum).toContain('ROUTE_NOT_FOUND');
      for (const route of ROUTES) {
        for (const [status, response] of Object.entries(document.paths[route].get.responses as Json)) {
          if (Number(status) < 400) continue;
          const media = response.content['application/json'];
          const codes = media.schema.allOf[1].properties.error.properties.code.enum;
          expect(Object.keys(media.examples)).toEqual(codes);
          for (const code of codes) {
            expect(media.examples[code].value).toEqual({
              error: { code, message: expect.any(String), request_id: expect.any(String) },
            });
          }
        }
      }
      // A VALIDATION_ERROR example says what the service says on that route.
      const validationExample = (route: string) =>
        document.paths[route].get.responses['400'].content['application/json'].examples.VALIDATION_ERROR.value
          .error.message;
      for (const [route, path] of [
        ['/v1/usage', '/v1/usage?page=1'],
        ['/v1/titles/{imdb_id}', '/v1/titles/tt0111161?page=1'],
        ['/v1/movies', '/v1/movies?page=0'],
        ['/v1/search', '/v1/search?q=a&page=0'],
      ]) {
        expect({ route, message: (await t.get(path).expect(400)).body.error.message }).toEqual({
          route,
          message: validationExample(route),
        });
      }
    });

    it('documents every parameter with its pattern or range', () => {
      const params = (route: string) =>
        Object.fromEntries(
          (document.paths[route].get.parameters ?? [])
            // If-None-Match has its own test below.
            .filter((p: Json) => p.in !== 'header')
            .map((p: Json) => [`${p.in}:${p.name}`, p]),
        );
      const paging = {
        'query:page': {
          required: false,
          schema: { type: 'integer', minimum: 1, maximum: 1_000_000, default: 1 },
        },
        'query:limit': { required: false, schema: { type: 'integer', minimum: 1, maximum: 20, default: 20 } },
      };
      expect(params('/v1/search')).toMatchObject({
        ...paging,
        'query:q': { required: true, schema: { type: 'string', minLength: 1, maxLength: 100 } },
        'query:type': { required: false },
        'query:year': { required: false, schema: { type: 'integer', minimum: 1800, maximum: 2100 } },
      });
      expect(Object.keys(params('/v1/search'))).toHaveLength(5);
      expect(document.components.schemas.TitleType.enum).toEqual([
        'movie',
        'tv_movie',
        'tv_series',
        'tv_mini_series',
        'tv_special',
      ]);
      expect(params('/v1/movies')).toMatchObject(paging);
      expect(Object.keys(params('/v1/movies'))).toHaveLength(2);
      expect(Object.keys(params('/v1/series'))).toHaveLength(2);
      expect(params('/v1/usage')).toEqual({});
      expect(params('/v1/titles/{imdb_id}')).toEqual({
        'path:imdb_id': expect.objectContaining({
          required: true,
          schema: { type: 'string', pattern: '^tt[0-9]+$' },
        }),
      });
      expect(params('/health')).toEqual({});
    });

    it('documents ETag, If-None-Match and 304 on the catalog routes, and only there', () => {
      for (const route of SERVICE_ROUTES) {
        expect({ route, conditional: '304' in document.paths[route].get.responses }).toEqual({
          route,
          conditional: CONDITIONAL_ROUTES.includes(route),
        });
      }
      for (const route of ROUTES) {
        const { parameters = [], responses } = document.paths[route].get;
        const conditional = '304' in responses;
        expect(parameters.some((p: Json) => p.in === 'header' && p.name === 'If-None-Match')).toBe(
          conditional,
        );
        expect(Object.keys(responses).includes('304')).toBe(conditional);
        // A 200 has no ETag while the catalog version is not known (none ingested, or mid-ingest).
        expect(responses['200'].headers.ETag?.required).toBe(conditional ? false : undefined);
        if (conditional) {
          expect(responses['304'].content).toBeUndefined();
          expect(responses['304'].headers.ETag.required).toBe(true);
        }
      }
    });

    it('requires the bearer scheme on /v1 and nothing on /health', () => {
      expect(document.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
      for (const route of ROUTES.filter((r) => r.startsWith('/v1'))) {
        expect(document.paths[route].get.security).toEqual([{ bearer: [] }]);
      }
      expect(document.paths['/health'].get.security).toEqual([]);
    });

    it('requires the security headers everywhere, and the limits and private-answer ones on /v1 after authentication', () => {
      for (const route of ROUTES.filter((r) => r.startsWith('/v1'))) {
        for (const [status, { headers }] of Object.entries(document.paths[route].get.responses as Json)) {
          const required = Object.keys(headers).filter((name) => headers[name].required);
          if (status === '401' || status === '403') {
            expect({ route, status, headers: Object.keys(headers) }).toEqual({
              route,
              status,
              headers: ['X-Request-Id', 'Cache-Control', ...SECURITY_HEADERS, 'Strict-Transport-Security'],
            });
            expect(headers['Cache-Control'].schema.enum).toEqual(['no-store']);
            continue;
          }
          // The IETF fields follow the limits check, which a 500 of the limits' store does not pass.
          const ietf = status === '500' ? [] : ['RateLimit-Policy', 'RateLimit'];
          const expected = [
            'X-Request-Id',
            'X-RateLimit-Limit',
            'X-RateLimit-Remaining',
            ...ietf,
            'Cache-Control',
            'Vary',
          ];
          if (status === '429') expected.push('Retry-After');
          expected.push(...SECURITY_HEADERS);
          if (status === '304') expected.push('ETag');
          expect({ route, status, required }).toEqual({ route, status, required: expected });
          expect(headers['Cache-Control'].schema.enum).toEqual(['private, max-age=0, must-revalidate']);
          // Sent over HTTPS only, so documented everywhere but never required.
          expect(headers['Strict-Transport-Security'].required).toBe(false);
        }
      }
      for (const { headers } of Object.values(document.paths['/health'].get.responses as Json)) {
        expect(Object.keys(headers)).toEqual([
          'X-Request-Id',
          'Cache-Control',
          ...SECURITY_HEADERS,
          'Strict-Transport-Security',
        ]);
      }
    });

    it('lists the error codes each route can answer, by status', () => {
      const codes = (route: string) =>
        Object.fromEntries(
          Object.entries(document.paths[route].get.responses as Json)
            .filter(([status]) => status !== '200' && status !== '304')
            .map(([status, response]) => [
              status,
              response.content['application/json'].schema.allOf[1].properties.error.properties.code.enum,
            ]),
        );
      const common = {
        '400': ['VALIDATION_ERROR'],
        '401': ['MISSING_API_KEY', 'INVALID_API_KEY'],
        '403': ['API_KEY_DISABLED'],
        '429': ['RATE_LIMITED', 'MONTHLY_QUOTA_EXCEEDED'],
        '500': ['INTERNAL_ERROR'],
      };
      expect(codes('/health')).toEqual({ '500': ['INTERNAL_ERROR'] });
      expect(codes('/v1/search')).toEqual(common);
      expect(codes('/v1/movies')).toEqual(common);
      expect(codes('/v1/series')).toEqual(common);
      expect(codes('/v1/titles/{imdb_id}')).toEqual({ ...common, '404': ['TITLE_NOT_FOUND'] });
      // Usage is answered at an exhausted quota, so it never refuses with the quota's code.
      expect(codes('/v1/usage')).toEqual({ ...common, '429': ['RATE_LIMITED'] });
    });

    it('describes the Title with exactly the fields a served title has, all required', async () => {
      const served = (await checked('/v1/titles/tt0111161', 200)).body.data[0];
      const schema = document.components.schemas.Title;
      expect(Object.keys(schema.properties)).toEqual(Object.keys(served));
      expect(Object.keys(served)).toHaveLength(22);
      expect(schema.required).toEqual(Object.keys(served));
      expect(schema.additionalProperties).toBe(false);
    });
  });

  describe('every response of every route matches it', () => {
    it('200 on every route, with results, empty, filtered and past the end', async () => {
      await checked('/health', 200, null);
      await checked('/v1/search?q=the', 200);
      await checked('/v1/search?q=amelie&type=movie&year=2001&page=1&limit=1', 200);
      await checked('/v1/search?q=zzzzzz', 200);
      await checked('/v1/search?q=the&page=1000000&limit=20', 200);
      for (const id of FIXTURE_TITLES.map((title) => title.imdbId)) await checked(`/v1/titles/${id}`, 200);
      await checked('/v1/movies?limit=20', 200);
      await checked('/v1/movies?page=2&limit=3', 200);
      await checked('/v1/series', 200);
      await checked('/v1/series?page=99', 200);
      await checked('/v1/usage', 200);
    });

    it('304 on every catalog route, with no body', async () => {
      for (const path of V1_REQUESTS) {
        const { etag } = (await checked(path, 200)).headers;
        const res = await checked(path, 304, t.key, { 'If-None-Match': etag });
        expect(res.text).toBe('');
      }
    });

    it('400 VALIDATION_ERROR', async () => {
      for (const path of [
        '/v1/search',
        '/v1/search?q=',
        '/v1/search?q=a&type=episode',
        '/v1/search?q=a&year=1799',
        '/v1/search?q=a&cursor=x',
        '/v1/titles/nm0000001',
        '/v1/titles/tt0111161?page=1',
        '/v1/titles/%zz',
        '/v1/movies?limit=21',
        '/v1/movies?page=0',
        '/v1/series?page=1&page=2',
        '/v1/usage?page=1',
      ]) {
        expect((await checked(path, 400)).body.error.code).toBe('VALIDATION_ERROR');
      }
    });

    it('401 and 403 on every /v1 route', async () => {
      const { key: disabled, summary } = await newKey(1000, 1000);
      await t.apiKeys.setDisabled(summary.id, true);
      for (const path of [...V1_REQUESTS, '/v1/usage']) {
        expect((await checked(path, 401, null)).body.error.code).toBe('MISSING_API_KEY');
        expect((await checked(path, 401, `mov_live_${'A'.repeat(43)}`)).body.error.code).toBe(
          'INVALID_API_KEY',
        );
        expect((await checked(path, 403, disabled)).body.error.code).toBe('API_KEY_DISABLED');
      }
    });

    it('404 TITLE_NOT_FOUND', async () => {
      expect((await checked('/v1/titles/tt0000001', 404)).body.error.code).toBe('TITLE_NOT_FOUND');
    });

    it('429 RATE_LIMITED and MONTHLY_QUOTA_EXCEEDED on every /v1 route', async () => {
      await awaitRoomInMinute(15);
      const { key: perMinute } = await newKey(1, 1000);
      const { key: monthly } = await newKey(1000, 1);
      await checked('/v1/movies', 200, perMinute);
      await checked('/v1/movies', 200, monthly);
      for (const path of V1_REQUESTS) {
        expect((await checked(path, 429, perMinute)).body.error.code).toBe('RATE_LIMITED');
        expect((await checked(path, 429, monthly)).body.error.code).toBe('MONTHLY_QUOTA_EXCEEDED');
      }
      expect((await checked('/v1/usage', 429, perMinute)).body.error.code).toBe('RATE_LIMITED');
      expect((await checked('/v1/usage', 200, monthly)).body.data[0].month.remaining).toBe(0);
    });

    it('500 INTERNAL_ERROR on every route when the database fails', async () => {
      const db = t.app.get(Database);
      await db.query('ALTER TABLE catalog_state RENAME TO catalog_state_away');
      await db.query('ALTER TABLE titles RENAME TO titles_away');
      await db.query('ALTER TABLE quota_counters RENAME TO quota_counters_away');
      try {
        await checked('/health', 500, null);
        for (const path of [...V1_REQUESTS, '/v1/usage'])
          expect((await checked(path, 500)).body.error.code).toBe('INTERNAL_ERROR');
      } finally {
        await db.query('ALTER TABLE quota_counters_away RENAME TO quota_counters');
        await db.query('ALTER TABLE titles_away RENAME TO titles');
        await db.query('ALTER TABLE catalog_state_away RENAME TO catalog_state');
      }
    });

    it('covered every documented status of every route', () => {
      const documented = SERVICE_ROUTES.flatMap((route) =>
        Object.keys(document.paths[route].get.responses).map((status) => `GET ${route} ${status}`),
      );
      expect([...conformance.covered].sort()).toEqual(documented.sort());
    });
  });

  it('types a client (openapi-typescript) that compiles with tsc --noEmit', async () => {
    await run(join(BIN, 'openapi-typescript'), [
      join(workDir, 'openapi.json'),
      '--output',
      join(workDir, 'api.d.ts'),
    ]);
    writeFileSync(join(workDir, 'client.ts'), TYPED_CLIENT);
    writeFileSync(join(workDir, 'tsconfig.json'), JSON.stringify(CLIENT_TSCONFIG));
    const compiled = await run(join(BIN, 'tsc'), ['--project', workDir]).then(
      () => 'compiled',
      (error: { stdout?: string }) => error.stdout ?? String(error),
    );
    expect(compiled).toBe('compiled');
  });
});

const CLIENT_TSCONFIG = {
  compilerOptions: {
    noEmit: true,
    strict: true,
    target: 'es2022',
    module: 'commonjs',
    lib: ['es2022', 'dom'],
    types: [],
  },
  files: ['client.ts'],
};

/** A small consumer of the generated types; `@ts-expect-error` lines prove the types are narrow. */
const TYPED_CLIENT = `
import type { components, paths } from './api';

type Title = components['schemas']['Title'];
type SearchQuery = NonNullable<paths['/v1/search']['get']['parameters']['query']>;
type SearchPage = paths['/v1/search']['get']['responses'][200]['content']['application/json'];
type OneTitle = paths['/v1/titles/{imdb_id}']['get']['responses'][200]['content']['application/json'];
type NotFound = paths['/v1/titles/{imdb_id}']['get']['responses'][404]['content']['application/json'];
type Health = paths['/health']['get']['responses'][200]['content']['application/json'];

export async function search(baseUrl: string, apiKey: string, query: SearchQuery): Promise<SearchPage> {
  const params = new URLSearchParams(Object.entries(query).map(([name, value]) => [name, String(value)]));
  const res = await fetch(\`\${baseUrl}/v1/search?\${params}\`, { headers: { Authorization: \`Bearer \${apiKey}\` } });
  return (await res.json()) as SearchPage;
}

export function describe(title: Title): string {
  const year: number | null = title.year;
  const genres: string[] | null = title.genres;
  const votes: number = title.ratings.votes;
  return \`\${title.imdb_id} \${title.title} (\${year ?? '?'}) \${genres?.join('/') ?? ''} \${votes}\`;
}

export function firstOfPage(page: SearchPage): Title | undefined {
  const more: boolean = page.meta.page < page.meta.total_pages;
  return more ? page.data[0] : page.data.at(-1);
}

export const example: SearchQuery = { q: 'the office', type: 'tv_series', year: 2005, page: 1, limit: 20 };
// @ts-expect-error type is an enumeration
export const badType: SearchQuery = { q: 'x', type: 'episode' };
// @ts-expect-error q is required
export const noQ: SearchQuery = { page: 1 };

export function errorCode(body: NotFound): 'TITLE_NOT_FOUND' | undefined {
  return body.error.code === 'TITLE_NOT_FOUND' ? body.error.code : undefined;
}
export const one = (body: OneTitle): Title | undefined => body.data[0];
export const version = (body: Health): string | null => body.data[0]?.catalog.catalog_version ?? null;
`;

describe('OpenAPI document: answers with the database closed', () => {
  it('are documented 500s; after authentication they carry the rate-limit policy', async () => {
    const t = await createTestApp();
    try {
      const conformance = await OpenApiConformance.of((await t.http().get('/openapi.json').expect(200)).body);
      await t.get('/v1/movies').expect(200); // the key is now cached: the failure comes after it
      await t.app.get(DataSource).destroy();
      const health = await t.http().get('/health').expect(500);
      expect(conformance.violations({ method: 'GET', path: '/health', res: health })).toEqual([]);
      for (const path of V1_REQUESTS) {
        const res = await t.get(path).expect(500);
        expect(conformance.violations({ method: 'GET', path, res })).toEqual([]);
        expect(res.body.error.code).toBe('INTERNAL_ERROR');
        // The key is known in memory, so authentication passed: every later answer carries the policy.
        expect(res.headers['x-ratelimit-limit']).toBe('1000000');
      }
    } finally {
      await t.close();
    }
  });
});
