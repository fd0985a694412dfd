import { Client } from 'pg';
import { FIXTURE_TITLES } from './support/catalog-fixture';
import { type TestApp, createTestApp } from './support/test-app';

/**
 * Searches run on their own small pool with a statement timeout: a search that cannot finish in
 * time answers 500 INTERNAL_ERROR, and lookups, lists and /health keep answering meanwhile.
 * (PostgreSQL only: the stall is a lock held by another session.)
 */
describe('search isolation', () => {
  let t: TestApp;
  let blocker: Client;

  beforeAll(async () => {
    t = await createTestApp();
    await t.writer.replaceCatalog({ titles: FIXTURE_TITLES });
    if (t.config.database.kind !== 'postgres') throw new Error('PostgreSQL only');
    blocker = new Client({ connectionString: t.config.database.url });
    await blocker.connect();
  });
  afterAll(async () => {
    await blocker.end();
    await t.close();
  });

  it('answers 500 for searches stalled past the timeout while lookups, lists and /health answer', async () => {
    await blocker.query('BEGIN');
    await blocker.query('LOCK TABLE search_lists IN ACCESS EXCLUSIVE MODE');
    try {
      // More stalled searches than the search pool has connections.
      const searches = Array.from({ length: 6 }, () => t.get('/v1/search?q=the').then((res) => res));
      for (let i = 0; i < 5; i++) {
        await t.get('/v1/titles/tt0111161').expect(200);
        await t.get('/v1/movies?page=2&limit=3').expect(200);
        await t.http().get('/health').expect(200);
      }
      for (const res of await Promise.all(searches)) {
        expect(res.status).toBe(500);
        expect(res.body.error).toEqual({
          code: 'INTERNAL_ERROR',
          message: expect.any(String),
          request_id: res.headers['x-request-id'],
        });
      }
    } finally {
      await blocker.query('ROLLBACK');
    }
    const after = await t.get('/v1/search?q=the').expect(200);
    expect(after.body.meta.total_results).toBe(6);
  });
});
