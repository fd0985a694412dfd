import type { AddressInfo } from 'node:net';
import { MAX_SEARCH_ANSWER_MS, SearchAdmission } from '../src/catalog/search/search-admission';
import { FIXTURE_TITLES } from './support/catalog-fixture';
import { type TestApp, createTestApp } from './support/test-app';
import { createTestDatabase } from './support/test-database';
import { sleep } from './support/timing';

const REFUSED = 50;
const RPM = 1_000_000;

/**
 * A search the replica could not answer in time is refused on arrival, as the contract allows a
 * failure of the service: 500 INTERNAL_ERROR with the headers of any 500 after authentication and no
 * Retry-After (the contract's header is "429 only"), counted in the minute and the month like every
 * request past the per-minute check. The admission is brought to a known state through its own API:
 * searches take longer than the start bound (one measured), and the one search connection is held,
 * so no search arriving now could be answered in time. None can start while the test holds the
 * slot, so each answer given meanwhile was decided on arrival. PostgreSQL only: the search pool of
 * one is a PostgreSQL setting (the embedded database runs two).
 */
describe('search overload', () => {
  let t: TestApp;
  let origin: string;

  beforeAll(async () => {
    const database = await createTestDatabase();
    if (database.config.kind !== 'postgres') throw new Error('PostgreSQL only');
    t = await createTestApp({ database: { ...database.config, searchPoolSize: 1 } }, database);
    await t.writer.replaceCatalog({ titles: FIXTURE_TITLES });
    await t.app.listen(0, '127.0.0.1');
    origin = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await t.close();
    await t.database.drop();
  });

  it('refuses on arrival what it cannot answer in time: a 500 with the contract headers, charged to the month', async () => {
    const admission = t.app.get(SearchAdmission);
    const { key } = await t.apiKeys.create({ name: 'overload', rpm: RPM, monthlyQuota: 1_000_000 });
    const get = (path: string) => fetch(`${origin}${path}`, { headers: { Authorization: `Bearer ${key}` } });
    const monthUsed = async () => ((await (await get('/v1/usage')).json()) as UsageBody).data[0].month.used;
    expect(await monthUsed()).toBe(0);

    const slow = admission.admit() as () => void;
    await sleep(MAX_SEARCH_ANSWER_MS + 100);
    slow();
    const held = admission.admit() as () => void;
    const refusals = await Promise.all(
      Array.from({ length: REFUSED }, async (_, i) => {
        const res = await get(`/v1/search?q=overload${i}`);
        return { status: res.status, headers: res.headers, body: (await res.json()) as ErrorBody };
      }),
    );
    expect(admission.waitingCount).toBe(0);
    for (const { status, headers, body } of refusals) {
      expect(status).toBe(500);
      expect(body.error.code).toBe('INTERNAL_ERROR');
      expect(headers.get('x-request-id')).toBe(body.error.request_id);
      expect(headers.get('x-ratelimit-limit')).toBe(String(RPM));
      expect(headers.get('x-ratelimit-remaining')).toBe(String(RPM - 1));
      expect(headers.get('retry-after')).toBeNull();
    }
    expect(admission.refusedCount).toBe(REFUSED);

    // Once the connection is free, a search starts at once and is served.
    held();
    const served = await get('/v1/search?q=godfather');
    expect(served.status).toBe(200);
    expect(served.headers.get('retry-after')).toBeNull();

    // Every request past the per-minute check counts toward the month, whatever its status.
    expect(await monthUsed()).toBe(REFUSED + 1);
  });
});

interface ErrorBody {
  error: { code: string; request_id: string };
}
interface UsageBody {
  data: Array<{ month: { used: number } }>;
}
