import { randomBytes } from 'node:crypto';
import { Agent } from 'node:http';
import { KEY_MISS_REREAD_INTERVAL_MS, KEY_REFRESH_INTERVAL_MS } from '../src/auth/api-key-directory';
import { CATALOG_STATE_POLL_MS } from '../src/catalog/catalog-state.provider';
import { CHANGE_CHANNEL, FEED_RETRY_MIN_MS } from '../src/database/change-feed';
import { KEY_QUOTA_READ_INTERVAL_MS } from '../src/metrics/key-quota.metrics';
import { PgStatementCounter } from './support/pg-statements';
import { type HttpAnswer, ServerProcess } from './support/server-process';
import { SERVED_IDS, seedServedCatalog } from './support/served-catalog';
import { TcpProxy } from './support/tcp-proxy';
import { type TestDatabase, createTestDatabase } from './support/test-database';
import { freePort } from './support/free-port';
import { eventually } from './support/timing';

const FLOOD = 3_000;

/** A distinct invalid credential: well-formed unknown keys, malformed keys and other schemes. */
function forged(i: number): string {
  const random = randomBytes(32).toString('base64url');
  switch (i % 6) {
    case 0:
    case 1:
    case 2:
      return `Bearer mov_live_${random}`; // well-formed, unknown
    case 3:
      return `Bearer mov_live_${random.slice(0, 20)}`; // too short
    case 4:
      return `Bearer ${random}`; // no prefix
    default:
      return `Bearer mov_live_${random.slice(0, 40)}!@#`; // characters outside the alphabet
  }
}

/**
 * A flood of unknown and malformed keys costs the database nothing per request.
 * The built server reaches PostgreSQL through a proxy that reads every statement off the wire.
 */
describe('forged-key floods cost no database statement', () => {
  let database: TestDatabase;
  let proxy: TcpProxy;
  let server: ServerProcess;
  let key: string;
  const counter = new PgStatementCounter();

  beforeAll(async () => {
    database = await createTestDatabase();
    if (database.config.kind !== 'postgres') throw new Error('PostgreSQL only');
    ({ key } = await seedServedCatalog(database.config));
    const direct = new URL(database.config.url);
    proxy = new TcpProxy(
      await freePort(),
      { host: direct.hostname, port: Number(direct.port || 5432) },
      counter.tap,
    );
    await proxy.restore();
    const proxied = new URL(database.config.url);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(proxy.port);
    const metricsPort = await freePort();
    server = await ServerProcess.start(await freePort(), {
      DATABASE_URL: proxied.toString(),
      METRICS_PORT: String(metricsPort),
    });
    // The change feed listens and self-tests (a notice it sends itself) after /health first
    // answers: that start-up work is the process's own, not the flood's, so the flood waits for it.
    await eventually(
      async () => {
        const metrics = await fetch(`http://127.0.0.1:${metricsPort}/metrics`).then(
          (res) => res.text(),
          () => '',
        );
        return /^db_change_feed_live 1$/m.test(metrics);
      },
      10_000,
      20,
    );
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await proxy?.cut();
    await database?.drop();
  });

  /** Sends the requests 32 at a time on kept-alive connections; the answers and the statements sent meanwhile. */
  async function run(headers: Array<Record<string, string>>, path: (i: number) => string) {
    const agent = new Agent({ keepAlive: true, maxSockets: 32 });
    const before = counter.statements.length;
    const started = Date.now();
    try {
      const answers: HttpAnswer[] = await Promise.all(headers.map((h, i) => server.get(path(i), h, agent)));
      return { answers, ms: Date.now() - started, statements: counter.statements.slice(before) };
    } finally {
      agent.destroy();
    }
  }

  it(`answers ${FLOOD} distinct forged keys 401 with no statement but the key directory's own reads`, async () => {
    const { answers, ms, statements } = await run(
      Array.from({ length: FLOOD }, (_, i) => ({ Authorization: forged(i) })),
      (i) => (i % 2 === 0 ? `/v1/titles/${SERVED_IDS[i % SERVED_IDS.length]}` : '/v1/search?q=served'),
    );
    const codes = answers.map(
      (a) => `${a.status} ${(JSON.parse(a.body) as { error?: { code?: string } }).error?.code}`,
    );
    expect(new Set(codes)).toEqual(new Set(['401 INVALID_API_KEY']));
    // The server has answered only /health before (first test): the only statements are the key
    // directory's own reads, bounded by time whatever the load: the periodic refresh, and the
    // re-reads unknown keys share (at most one per KEY_MISS_REREAD_INTERVAL_MS), never one per key.
    // Besides, the process reads the catalog state on its timer, whatever its load, and (metrics on)
    // counts the keys near their monthly quota on its own; a request-path statement's deadline is
    // set in the same round trip (set_config). The change feed's session, when a statement on it
    // is late on a loaded machine, is taken down and listens and self-tests again: its own work,
    // at most one attempt per FEED_RETRY_MIN_MS (an idle one is pinged with SELECT 1).
    const polls = statements.filter((sql) => /FROM catalog_state/i.test(sql));
    const quotaCounts = statements.filter((sql) => /JOIN quota_counters/i.test(sql));
    const feedWork = statements.filter(
      (sql) => sql === `LISTEN ${CHANGE_CHANNEL}` || /^SELECT pg_notify\(/i.test(sql) || sql === 'SELECT 1',
    );
    const keyReads = statements.filter(
      (sql) =>
        !/FROM catalog_state/i.test(sql) &&
        !/JOIN quota_counters/i.test(sql) &&
        !/set_config\('statement_timeout'/i.test(sql) &&
        !feedWork.includes(sql),
    );
    const foreign = keyReads.filter((sql) => !/FROM "?api_keys"?/i.test(sql));
    expect(foreign).toEqual([]);
    expect(polls.length).toBeLessThanOrEqual(Math.floor(ms / CATALOG_STATE_POLL_MS) + 2);
    expect(quotaCounts.length).toBeLessThanOrEqual(Math.floor(ms / KEY_QUOTA_READ_INTERVAL_MS) + 1);
    // Each attempt: LISTEN and the self-test's notice (and the ping that found the session late).
    expect(feedWork.length).toBeLessThanOrEqual(3 * (Math.floor(ms / FEED_RETRY_MIN_MS) + 1));
    expect(keyReads.length).toBeLessThanOrEqual(
      Math.floor(ms / KEY_REFRESH_INTERVAL_MS) + Math.floor(ms / KEY_MISS_REREAD_INTERVAL_MS) + 3,
    );
    expect(keyReads.length).toBeLessThan(FLOOD / 20);
    // Nothing was evicted: the real key is still served.
    const after = await run([{ Authorization: `Bearer ${key}` }], () => `/v1/titles/${SERVED_IDS[0]}`);
    expect(after.answers[0].status).toBe(200);
    console.info(
      `forged-key flood: ${FLOOD} requests in ${ms} ms, ${statements.length} statements ` +
        `(${(statements.length / FLOOD).toFixed(4)} per request): ${keyReads.length} key directory reads, ` +
        `${polls.length} catalog-state polls, ${feedWork.length} of the change feed's own`,
    );
  });

  it('counts the statements of real requests (the counter sees per-request work)', async () => {
    // One at a time, so no two lookups share a statement: each title not cached yet costs one (the
    // first test has read SERVED_IDS[0]).
    const before = counter.statements.length;
    for (const imdbId of SERVED_IDS) {
      const { answers } = await run([{ Authorization: `Bearer ${key}` }], () => `/v1/titles/${imdbId}`);
      expect(answers[0].status).toBe(200);
    }
    const titleReads = counter.statements.slice(before).filter((sql) => sql.includes('unnest($1::text[])'));
    expect(titleReads.length).toBeGreaterThanOrEqual(SERVED_IDS.length - 1);
  });
});
