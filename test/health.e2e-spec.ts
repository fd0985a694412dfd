import { FIXTURE_TITLES } from './support/catalog-fixture';
import { type TestApp, createTestApp } from './support/test-app';

describe('GET /health', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('reports an empty catalog before any load, with exactly the contract fields', async () => {
    const res = await t.get('/health').expect(200);
    expect(res.body).toEqual({
      data: [
        {
          status: 'ok',
          environment: 'test',
          catalog: { catalog_version: null, title_count: 0, ingested_at: null, enrichment_complete: false },
        },
      ],
      meta: { request_id: res.headers['x-request-id'] },
    });
  });

  it('reports the loaded catalog at once after a load', async () => {
    const before = Date.now();
    await t.writer.replaceCatalog({ titles: FIXTURE_TITLES }, { catalogVersion: 'fixture-1' });
    const { catalog } = (await t.get('/health').expect(200)).body.data[0];
    expect(catalog).toMatchObject({
      catalog_version: 'fixture-1',
      title_count: FIXTURE_TITLES.length,
      enrichment_complete: false,
    });
    expect(catalog.ingested_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(Date.parse(catalog.ingested_at)).toBeGreaterThanOrEqual(before - 5_000);
  });

  it('reports enrichment_complete when every title was enriched', async () => {
    await t.writer.replaceCatalog({ titles: FIXTURE_TITLES.map((title) => ({ ...title, enriched: true })) });
    const { catalog } = (await t.get('/health').expect(200)).body.data[0];
    expect(catalog.enrichment_complete).toBe(true);
    expect(catalog.catalog_version).toMatch(/^sha256-[0-9a-f]{16}$/);
  });

  it('answers 500 INTERNAL_ERROR with only X-Request-Id when the catalog query fails', async () => {
    const db = t.app.get((await import('../src/database/database')).Database);
    await db.query('ALTER TABLE catalog_state RENAME TO catalog_state_away');
    try {
      const res = await t.get('/health').expect(500);
      expect(res.body).toEqual({
        error: {
          code: 'INTERNAL_ERROR',
          message: 'An internal error occurred.',
          request_id: res.headers['x-request-id'],
        },
      });
      expect(JSON.stringify(res.body)).not.toMatch(/catalog_state|relation|stack/i);
    } finally {
      await db.query('ALTER TABLE catalog_state_away RENAME TO catalog_state');
    }
    await t.get('/health').expect(200);
  });
});
