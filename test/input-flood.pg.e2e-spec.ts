import { FLOOD_KINDS, type FloodKind, flood, residentBytes, watchResident } from './support/request-flood';
import { ServerProcess } from './support/server-process';
import { SERVED_IDS, seedServedCatalog } from './support/served-catalog';
import { type TestDatabase, createTestDatabase } from './support/test-database';
import { sleep } from './support/timing';

/** The caches' budget of the server under test: small, so a flood fills it many times over. */
const CACHE_BUDGET_MB = 8;
/** What the process may grow beyond its caches (the goal's bound), whatever the flood. */
const HEADROOM_MB = 32;
/** Requests of each kind; `INPUT_FLOOD_REQUESTS` scales them (bench/input-flood.ts runs 100,000). */
const REQUESTS = Number(process.env.INPUT_FLOOD_REQUESTS ?? 6_000);
const MB = 1024 * 1024;
const CONCURRENCY: Record<FloodKind, number> = {
  'long-ids': 16,
  searches: 8,
  'list-pages': 16,
  'unknown-keys': 16,
  'long-keys': 16,
  'request-ids': 16,
};

const EXPECTED_STATUS: Record<FloodKind, number> = {
  'long-ids': 404,
  searches: 200,
  'list-pages': 200,
  'unknown-keys': 401,
  'long-keys': 401,
  'request-ids': 200,
};

/**
 * A replica under the container's heap cap, access lines on, keeps nothing per request beyond its byte budgets: one
 * key holder sending distinct long ids, searches, list pages, unknown keys and request ids grows
 * its resident memory by at most CACHE_BUDGET_MB + 32 MB, and it keeps serving.
 */
describe('a flood of distinct client input', () => {
  let database: TestDatabase;
  let server: ServerProcess;
  let key: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    if (database.config.kind !== 'postgres') throw new Error('PostgreSQL only');
    ({ key } = await seedServedCatalog(database.config));
    server = await ServerProcess.startAsImage({
      DATABASE_URL: database.config.url,
      CACHE_BUDGET_MB: String(CACHE_BUDGET_MB),
    });
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await database?.drop();
  });

  it(`grows the process by at most its cache budget + ${HEADROOM_MB} MB`, async () => {
    const pid = server.child.pid!;
    const options = { key, knownId: SERVED_IDS[0] };
    // Warm up every path (code compiled, pools and heap at their working size) on inputs of their own.
    for (const kind of FLOOD_KINDS) {
      await flood(server.port, kind, 500, { ...options, offset: 10_000_000, concurrency: CONCURRENCY[kind] });
    }
    await sleep(1_000);
    const baseline = residentBytes(pid)!;
    const resident = watchResident(pid);
    const results: Record<string, unknown> = {};
    try {
      for (const kind of FLOOD_KINDS) {
        // Up to 8 clients searching at once are always served (docs/search.md): none is refused.
        const result = await flood(server.port, kind, REQUESTS, {
          ...options,
          concurrency: CONCURRENCY[kind],
        });
        results[kind] = { ...result, peakGrowthMb: Math.round((resident.peak - baseline) / MB) };
        expect(server.alive).toBe(true);
        expect(result.failures).toBe(0);
        expect(result.statuses).toEqual({ [EXPECTED_STATUS[kind]]: REQUESTS });
      }
    } finally {
      resident.stop();
      console.info(JSON.stringify({ baselineMb: Math.round(baseline / MB), results }));
    }
    expect(resident.peak - baseline).toBeLessThanOrEqual((CACHE_BUDGET_MB + HEADROOM_MB) * MB);
    // Still serving the real key.
    expect((await server.get(`/v1/titles/${SERVED_IDS[0]}`, { authorization: `Bearer ${key}` })).status).toBe(
      200,
    );
  }, 600_000);
});
