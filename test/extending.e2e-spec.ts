import { request as httpRequest } from 'node:http';
import { FIXTURE_TITLES } from './support/catalog-fixture';
import { freePort } from './support/free-port';
import { type TestApp, createTestApp } from './support/test-app';
import { awaitRoomInMinute } from './support/timing';
import { titleRecord } from './support/titles';
import { GenresModule } from './example-genres/genres.module';

/** A port free when the file starts (the e2e parts run side by side; a fixed one could be taken). */
let metricsPort: number;
beforeAll(async () => {
  metricsPort = await freePort();
});

/** The metrics listener's exposition text. */
function scrapeMetrics(): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port: metricsPort, path: '/metrics', agent: false },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve(body));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/**
 * docs/extending.md, proven: a module from outside src/ (test/example-genres), started through the
 * documented entry point (`AppModule.forRoot(config, { modules })`, which createTestApp passes on),
 * gets every rule of the access path and of the answers without a line of its own for them.
 */
describe('a team module started with AppModule.forRoot(config, { modules }): GET /v1/genres', () => {
  let t: TestApp;

  const withKey = (path: string, key: string) => t.http().get(path).set('Authorization', `Bearer ${key}`);
  const newKey = async (rpm: number, monthlyQuota: number) =>
    (await t.apiKeys.create({ name: 'genres', rpm, monthlyQuota })).key;

  beforeAll(async () => {
    t = await createTestApp({ metricsPort }, undefined, { modules: [GenresModule] });
    await t.writer.replaceCatalog(
      {
        titles: [
          ...FIXTURE_TITLES,
          titleRecord({ imdbId: 'tt7700001', title: 'Genre Count One', genres: ['Drama', 'Comedy'] }),
          titleRecord({ imdbId: 'tt7700002', title: 'Genre Count Two', genres: ['Comedy'] }),
        ],
      },
      { catalogVersion: 'genres-1' },
    );
  });
  afterAll(async () => {
    if (t) await t.close();
  });

  it('serves its data in the envelope, with the request id in the header and in meta', async () => {
    const res = await t.get('/v1/genres').set('X-Request-Id', 'genres-req-1').expect(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['x-request-id']).toBe('genres-req-1');
    expect(res.body.meta).toEqual({ request_id: 'genres-req-1' });
    const counts = new Map(
      res.body.data.map((row: { genre: string; titles: number }) => [row.genre, row.titles]),
    );
    expect(counts.get('Comedy')).toBe(2);
    expect(counts.get('Drama')).toBe(
      FIXTURE_TITLES.filter((title) => title.genres?.includes('Drama')).length + 1,
    );
    const least = await t.get('/v1/genres?min_titles=2').expect(200);
    expect(least.body.data.every((row: { titles: number }) => row.titles >= 2)).toBe(true);
  });

  it('refuses a request without a key: 401 MISSING_API_KEY in the error envelope', async () => {
    const res = await t.http().get('/v1/genres').expect(401);
    expect(res.body).toEqual({
      error: {
        code: 'MISSING_API_KEY',
        message: expect.any(String),
        request_id: res.headers['x-request-id'],
      },
    });
    expect(res.headers['x-ratelimit-limit']).toBeUndefined();
  });

  it('answers with the rate-limit headers and the private cache headers of an authenticated answer', async () => {
    const key = await newKey(50, 1000);
    await awaitRoomInMinute();
    const res = await withKey('/v1/genres', key).expect(200);
    expect(res.headers['x-ratelimit-limit']).toBe('50');
    expect(res.headers['x-ratelimit-remaining']).toBe('49');
    expect(res.headers['ratelimit-policy']).toMatch(/^"minute";q=50;w=60, "month";q=1000;w=\d+$/);
    expect(res.headers['ratelimit']).toMatch(/^"minute";r=49;t=\d+, "month";r=999;t=\d+$/);
    expect(res.headers['cache-control']).toBe('private, max-age=0, must-revalidate');
    expect(res.headers['vary']).toBe('Authorization');
  });

  it('refuses past the per-minute limit: 429 RATE_LIMITED with Retry-After 60', async () => {
    const key = await newKey(2, 1000);
    await awaitRoomInMinute();
    await withKey('/v1/genres', key).expect(200);
    await withKey('/v1/genres', key).expect(200);
    const res = await withKey('/v1/genres', key).expect(429);
    expect(res.body.error).toEqual({
      code: 'RATE_LIMITED',
      message: expect.any(String),
      request_id: res.headers['x-request-id'],
    });
    expect(res.headers).toMatchObject({
      'x-ratelimit-limit': '2',
      'x-ratelimit-remaining': '0',
      'retry-after': '60',
    });
  });

  it('refuses past the monthly quota: 429 MONTHLY_QUOTA_EXCEEDED', async () => {
    const key = await newKey(100, 1);
    await withKey('/v1/genres', key).expect(200);
    const res = await withKey('/v1/genres', key).expect(429);
    expect(res.body.error.code).toBe('MONTHLY_QUOTA_EXCEEDED');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('refuses bad input after the checks: 400 VALIDATION_ERROR in the error envelope', async () => {
    const res = await t.get('/v1/genres?min_titles=abc').expect(400);
    expect(res.body).toEqual({
      error: {
        code: 'VALIDATION_ERROR',
        message: 'min_titles must be an integer from 1 to 1000000.',
        request_id: res.headers['x-request-id'],
      },
    });
    const unknown = await t.get('/v1/genres?genre=Drama').expect(400);
    expect(unknown.body.error.message).toBe('Unknown query parameter "genre". Accepted: min_titles.');
    expect(unknown.headers['etag']).toBeUndefined();
  });

  it('tags its answer with an ETag and answers 304 to a fresh copy, GET and HEAD', async () => {
    const first = await t.get('/v1/genres').expect(200);
    const etag = first.headers['etag'];
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    const fresh = await t.get('/v1/genres').set('If-None-Match', etag).expect(304);
    expect(fresh.text).toBe('');
    expect(fresh.headers['x-request-id']).toBeDefined();
    await t
      .http()
      .head('/v1/genres')
      .set('Authorization', `Bearer ${t.key}`)
      .set('If-None-Match', etag)
      .expect(304);
    // Another target is another representation: its own tag.
    const other = await t.get('/v1/genres?min_titles=2').expect(200);
    expect(other.headers['etag']).not.toBe(etag);
  });

  it('is counted in the metrics under its route template', async () => {
    await t.get('/v1/genres').expect(200);
    await t.http().get('/v1/genres').expect(401);
    const body = await scrapeMetrics();
    expect(body).toMatch(/^http_requests_total\{method="GET",route="\/v1\/genres",status="200"\} [1-9]\d*$/m);
    expect(body).toMatch(
      /^http_request_rejections_total\{route="\/v1\/genres",status="401",code="[A-Z_|]*"\} \d+$/m,
    );
  });

  it('has its operation in /openapi.json: bearer security, its query, its schema and the metered errors', async () => {
    const { body: document } = await t.http().get('/openapi.json').expect(200);
    const operation = document.paths['/v1/genres'].get;
    expect(operation.operationId).toBe('GenresController_list');
    expect(operation.security).toEqual([{ bearer: [] }]);
    expect(operation.parameters.map((parameter: { name: string }) => parameter.name)).toContain('min_titles');
    expect(operation.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/GenreCounts',
    });
    expect(Object.keys(operation.responses)).toEqual(
      expect.arrayContaining(['200', '304', '400', '401', '403', '429']),
    );
    expect(document.paths['/v1/genres'].head).toBeDefined();
    expect(document.components.schemas.GenreCount).toBeDefined();
    // Its tag is declared for it (no line in openapi-document.ts), after the service's own.
    expect(document.tags.map((tag: { name: string }) => tag.name)).toEqual([
      'catalog',
      'usage',
      'health',
      'genres',
    ]);
    expect(document.tags[3].description).toBe(
      'Genres of the catalog and their title counts (API key required)',
    );
  });
});
