import { request as httpRequest } from 'node:http';
import { CATALOG_STATE_SAFETY_NET_MS } from '../src/catalog/catalog-state.provider';
import { Database } from '../src/database/database';
import { HttpMetrics } from '../src/metrics/http-metrics';
import { KeyQuotaMetrics } from '../src/metrics/key-quota.metrics';
import { FIXTURE_TITLES } from './support/catalog-fixture';
import { freePort } from './support/free-port';
import { eventually } from './support/timing';
import { type TestApp, createTestApp } from './support/test-app';
import { TEST_ENGINE } from './support/test-database';

/**
 * A port free when the file starts: the e2e parts run side by side, and each may run this file at the
 * same time, so a fixed port could be the other part's metrics listener.
 */
let metricsPort: number;
beforeAll(async () => {
  metricsPort = await freePort();
});

/** A plain request to the metrics listener: status and body. */
function scrape(path = '/metrics', method = 'GET'): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: metricsPort, path, method, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']), body }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

/** The value of one sample line, e.g. `http_requests_total{method="GET",route="/health",status="200"}`. */
function sample(body: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  for (const line of body.split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const present = (match[2] ?? '').split(/,(?=[a-zA-Z_]+=")/);
    if (wanted.every((pair) => present.includes(pair))) return Number(match[3]);
  }
  return undefined;
}

describe('Prometheus metrics on METRICS_PORT', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ metricsPort });
    await t.writer.replaceCatalog({ titles: FIXTURE_TITLES }, { catalogVersion: 'metrics-1' });
  });
  afterAll(async () => {
    if (t) await t.close();
  });

  it('exposes request, latency, rejection, catalog and process series after some requests', async () => {
    await t.http().get('/health').expect(200);
    await t.get('/v1/search?q=office').expect(200);
    await t.get('/v1/titles/tt0111161').expect(200);
    await t.get('/v1/titles/tt0000001').expect(404);
    await t.get('/v1/movies?limit=0').expect(400);
    await t.http().get('/v1/series').expect(401);
    await t.http().get('/nope').expect(404);

    const { status, type, body } = await scrape();
    expect(status).toBe(200);
    expect(type).toContain('text/plain');

    expect(sample(body, 'http_requests_total', { method: 'GET', route: '/health', status: '200' })).toBe(1);
    expect(sample(body, 'http_requests_total', { route: '/v1/search', status: '200' })).toBe(1);
    expect(sample(body, 'http_requests_total', { route: '/v1/titles/{imdb_id}', status: '200' })).toBe(1);
    expect(sample(body, 'http_requests_total', { route: 'unmatched', status: '404' })).toBe(1);
    expect(
      sample(body, 'http_request_duration_seconds_count', { route: '/v1/titles/{imdb_id}', status: '404' }),
    ).toBe(1);
    expect(
      sample(body, 'http_request_duration_seconds_bucket', { route: '/health', status: '200', le: '+Inf' }),
    ).toBe(1);

    const rejected = (labels: Record<string, string>) =>
      sample(body, 'http_request_rejections_total', labels);
    expect(rejected({ route: '/v1/titles/{imdb_id}', status: '404', code: 'TITLE_NOT_FOUND' })).toBe(1);
    expect(rejected({ route: '/v1/movies', status: '400', code: 'VALIDATION_ERROR' })).toBe(1);
    expect(rejected({ route: 'unmatched', status: '404', code: 'ROUTE_NOT_FOUND' })).toBe(1);
    expect(body).toMatch(
      /^http_request_rejections_total\{route="\/v1\/series",status="401",code="[A-Z_|]*MISSING_API_KEY[A-Z_|]*"\} 1$/m,
    );
    expect(rejected({ route: '/health' })).toBeUndefined();

    expect(sample(body, 'catalog_titles')).toBe(FIXTURE_TITLES.length);
    const ingestedAt = sample(body, 'catalog_last_ingest_timestamp_seconds')!;
    expect(Math.abs(ingestedAt - Date.now() / 1000)).toBeLessThan(600);
    expect(body).toContain('# TYPE db_statement_timeouts_total counter');
    expect(sample(body, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(sample(body, 'nodejs_eventloop_lag_p99_seconds')).toBeGreaterThanOrEqual(0);
    // Plain HTTP: no certificate, so no expiry (a 0 would read as long expired).
    expect(body).not.toContain('tls_certificate_expiry_timestamp_seconds');

    if (TEST_ENGINE === 'postgres') {
      expect(sample(body, 'db_pool_connections')).toBeGreaterThanOrEqual(1);
      expect(sample(body, 'db_pool_idle_connections')).toBeGreaterThanOrEqual(0);
      expect(sample(body, 'db_pool_waiting_requests')).toBe(0);
    } else {
      expect(body).not.toContain('db_pool_');
    }
  });

  it('shows whether the change feed is live (PostgreSQL only: the embedded database has none)', async () => {
    if (TEST_ENGINE === 'postgres') {
      await eventually(async () => sample((await scrape()).body, 'db_change_feed_live') === 1, 5_000, 50);
    } else {
      expect((await scrape()).body).not.toContain('db_change_feed_live');
    }
  });

  it("shows each catalog cache's bytes and entries, its floor and the budget they share", async () => {
    await t.get('/v1/search?q=love').expect(200);
    await t.get('/v1/movies?limit=3').expect(200);
    await t.get('/v1/movies?limit=3').expect(200);
    const { body } = await scrape();
    const budget = t.config.cacheBudgetBytes;
    expect(sample(body, 'catalog_cache_budget_bytes', { cache: 'titles' })).toBe(budget);
    expect(sample(body, 'catalog_cache_budget_bytes', { cache: 'lists' })).toBe(budget);
    expect(sample(body, 'catalog_cache_floor_bytes', { cache: 'titles' })).toBe(Math.floor(budget / 4));
    expect(sample(body, 'catalog_cache_floor_bytes', { cache: 'lists' })).toBe(Math.floor(budget / 8));
    for (const cache of ['searches', 'lists']) {
      expect(sample(body, 'catalog_cache_entries', { cache })).toBeGreaterThanOrEqual(1);
      expect(sample(body, 'catalog_cache_bytes', { cache })).toBeGreaterThan(100);
    }
    expect(sample(body, 'catalog_cache_bytes', { cache: 'titles' })).toBeGreaterThanOrEqual(0);
  });

  it("counts each cache's hits and misses: a list page kept on its second ask is a hit on its third", async () => {
    const count = async (name: string) => sample((await scrape()).body, name, { cache: 'lists' }) ?? 0;
    const [hits, misses] = [
      await count('catalog_cache_hits_total'),
      await count('catalog_cache_misses_total'),
    ];
    for (let ask = 0; ask < 3; ask++) await t.get('/v1/series?limit=7&page=2').expect(200);
    expect(await count('catalog_cache_misses_total')).toBe(misses + 2);
    expect(await count('catalog_cache_hits_total')).toBe(hits + 1);
  });

  it('shows the search admission: none running or waiting at rest', async () => {
    await t.get('/v1/search?q=metrics-admission').expect(200);
    const { body } = await scrape();
    expect(sample(body, 'search_running')).toBe(0);
    expect(sample(body, 'search_waiting')).toBe(0);
    expect(sample(body, 'search_refused_total')).toBe(0);
  });

  it('counts the usable keys expiring within 7 days, naming none', async () => {
    const day = 86_400_000;
    const before = sample((await scrape()).body, 'api_keys_expiring_soon')!;
    await t.apiKeys.create({
      name: 'soon',
      rpm: 1,
      monthlyQuota: 1,
      expiresAt: new Date(Date.now() + 3 * day),
    });
    await t.apiKeys.create({
      name: 'later',
      rpm: 1,
      monthlyQuota: 1,
      expiresAt: new Date(Date.now() + 30 * day),
    });
    const { body } = await scrape();
    expect(sample(body, 'api_keys_expiring_soon')).toBe(before + 1);
    expect(body).toMatch(/^api_keys_expiring_soon \d+$/m);
  });

  it("counts the usable keys at 80% and at 100% of their monthly quota, naming none, and keys:list's figures agree", async () => {
    const metrics = t.app.get(KeyQuotaMetrics);
    const gauges = async () => {
      await metrics.refresh();
      const { body } = await scrape();
      return [
        sample(body, 'api_keys_monthly_quota_nearly_used')!,
        sample(body, 'api_keys_monthly_quota_used_up')!,
      ];
    };
    const [nearlyBefore, usedUpBefore] = await gauges();
    const firstDay = new Date().toISOString().slice(0, 10);
    // [monthly quota, requests]: 80% counts, 60% does not, 100% counts in both, a disabled key in none.
    const plan = { near: [5, 4], below: [5, 3], out: [3, 3], off: [1, 1] };
    const keys: Record<string, { id: string; used: number }> = {};
    for (const [name, [monthlyQuota, requests]] of Object.entries(plan)) {
      const { key, summary } = await t.apiKeys.create({ name, rpm: 1_000, monthlyQuota });
      for (let i = 0; i < requests; i++) {
        await t.http().get('/v1/movies?limit=1').set('Authorization', `Bearer ${key}`).expect(200);
      }
      keys[name] = { id: summary.id, used: requests };
    }
    await t.apiKeys.setDisabled(keys.off.id, true);
    // A block reserved ahead and not spent counts as used until it goes back (idle for 1 s).
    const db = t.app.get(Database);
    await eventually(
      async () => {
        const rows = await db.query<{ key: string; reserved: number }>(
          'SELECT key, reserved::int AS reserved FROM quota_counters',
        );
        const reserved = new Map(rows.map((row) => [row.key, row.reserved]));
        return Object.values(keys).every(({ id, used }) => reserved.get(`month:${id}`) === used);
      },
      5_000,
      100,
    );
    expect(await gauges()).toEqual([nearlyBefore + 2, usedUpBefore + 1]);
    expect((await scrape()).body).toMatch(/^api_keys_monthly_quota_used_up \d+$/m);

    // The UTC day of the last request (the test may straddle midnight: either day it ran on).
    const days = [firstDay, new Date().toISOString().slice(0, 10)];
    const listed = new Map((await t.apiKeys.list()).map((key) => [key.id, key]));
    for (const { id, used } of Object.values(keys)) {
      expect(listed.get(id)!.month_used).toBe(used);
      expect(days).toContain(listed.get(id)!.last_used_on);
    }
  });

  it('the public port has no /metrics: it is an unmatched route there', async () => {
    const res = await t.http().get('/metrics').expect(404);
    expect(res.body.error).toEqual({
      code: 'ROUTE_NOT_FOUND',
      message: expect.any(String),
      request_id: res.headers['x-request-id'],
    });
    const keyed = await t.get('/metrics').expect(404);
    expect(keyed.body.error.code).toBe('ROUTE_NOT_FOUND');
    const { body } = await scrape();
    expect(body).not.toMatch(/route="\/metrics"/);
  });

  it('answers only GET and HEAD /metrics on the metrics port', async () => {
    expect((await scrape('/metrics?name=x')).status).toBe(200);
    expect((await scrape('/metrics', 'HEAD')).status).toBe(200);
    expect((await scrape('/', 'GET')).status).toBe(404);
    expect((await scrape('/v1/movies', 'GET')).status).toBe(404);
    expect((await scrape('/metrics', 'POST')).status).toBe(404);
  });

  it('reads NaN for the catalog while its state cannot be read, and recovers', async () => {
    const db = t.app.get((await import('../src/database/database')).Database);
    await db.query('ALTER TABLE catalog_state RENAME TO catalog_state_away');
    try {
      // The gauges show the process's newest state reading: NaN once a read has failed (the state
      // is read every 500 ms, or every 5 s while a change feed is live: nothing announces a
      // renamed table), and each scrape still answers 200.
      await eventually(
        async () => {
          const { status, body } = await scrape();
          expect(status).toBe(200);
          return Number.isNaN(sample(body, 'catalog_titles'));
        },
        CATALOG_STATE_SAFETY_NET_MS + 2_000,
        100,
      );
    } finally {
      await db.query('ALTER TABLE catalog_state_away RENAME TO catalog_state');
    }
    expect(sample((await scrape()).body, 'catalog_titles')).toBe(FIXTURE_TITLES.length);
  });

  it('stops listening when the application closes', async () => {
    await t.close();
    t = undefined as unknown as TestApp;
    await expect(scrape()).rejects.toThrow(/ECONNREFUSED/);
  });
});

describe('metrics without METRICS_PORT', () => {
  it('are off: no listener, no HTTP instrumentation', async () => {
    const t = await createTestApp();
    try {
      expect(t.config.metricsPort).toBeNull();
      expect(() => t.app.get(HttpMetrics)).toThrow();
      await expect(scrape()).rejects.toThrow(/ECONNREFUSED/);
      await t.http().get('/metrics').expect(404);
    } finally {
      await t.close();
    }
  });
});
