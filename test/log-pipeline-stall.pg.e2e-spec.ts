import { get as httpGet } from 'node:http';
import { freePort } from './support/free-port';
import { flood, LONG_ID_DIGITS, residentBytes, watchResident } from './support/request-flood';
import { ServerProcess } from './support/server-process';
import { SERVED_IDS, seedServedCatalog } from './support/served-catalog';
import { type TestDatabase, createTestDatabase } from './support/test-database';
import { sleep } from './support/timing';

/** What the process may grow while its stdout is not read: the log budget (8 MB) and room for the rest. */
const GROWTH_MB = 96;
const REQUESTS = 30_000;
const MB = 1024 * 1024;
/** `/v1/titles/tt` + the id's digits (test/support/request-flood.ts, `long-ids`). */
const LONG_URL_LENGTH = '/v1/titles/tt'.length + LONG_ID_DIGITS;

function scrape(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    httpGet({ host: '127.0.0.1', port, path: '/metrics' }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve(body));
    }).on('error', reject);
  });
}

const droppedTotal = (metrics: string) => Number(/^log_lines_dropped_total (\d+)$/m.exec(metrics)?.[1]);

function jsonLines(text: string): Array<Record<string, unknown>> {
  return text
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/**
 * A replica whose stdout nobody reads (a stalled log agent or container runtime) keeps serving under
 * the image's heap cap: 30,000 access lines of distinct 12 KB ids at LOG_LEVEL=info grow it by at most
 * GROWTH_MB; the lines past the log budget are dropped and counted, and once stdout is read again
 * one line says how many.
 */
describe('a stalled stdout', () => {
  let database: TestDatabase;
  let server: ServerProcess;
  let key: string;
  let metricsPort: number;

  beforeAll(async () => {
    database = await createTestDatabase();
    if (database.config.kind !== 'postgres') throw new Error('PostgreSQL only');
    ({ key } = await seedServedCatalog(database.config));
    metricsPort = await freePort();
    server = await ServerProcess.startAsImage({
      DATABASE_URL: database.config.url,
      METRICS_PORT: String(metricsPort),
    });
  }, 120_000);
  afterAll(async () => {
    server?.resumeStdout();
    await server?.stop();
    await database?.drop();
  });

  it(`keeps the process within ${GROWTH_MB} MB of growth, drops and counts what the pipe cannot take`, async () => {
    const pid = server.child.pid!;
    const options = { key, knownId: SERVED_IDS[0], concurrency: 16 };
    // Warm up with stdout read (code compiled, pools and heap at their working size).
    await flood(server.port, 'long-ids', 500, { ...options, offset: 10_000_000 });
    await flood(server.port, 'request-ids', 500, options);
    await sleep(1_000);
    const baseline = residentBytes(pid)!;
    const resident = watchResident(pid);
    server.pauseStdout();
    let result;
    try {
      result = await flood(server.port, 'long-ids', REQUESTS, options);
    } finally {
      resident.stop();
    }
    const growthMb = Math.round((resident.peak - baseline) / MB);
    const alive = server.alive;
    const dropped = alive ? droppedTotal(await scrape(metricsPort)) : NaN;
    // A dead server's last words (its stderr: stdout is not read), e.g. V8's heap-out-of-memory report.
    const lastWords = alive ? undefined : server.logs().slice(-400);
    console.info(
      JSON.stringify({ baselineMb: Math.round(baseline / MB), growthMb, alive, dropped, result, lastWords }),
    );
    expect(alive).toBe(true);
    expect(result.failures).toBe(0);
    expect(result.statuses).toEqual({ 404: REQUESTS });
    expect(resident.peak - baseline).toBeLessThanOrEqual(GROWTH_MB * MB);
    // The pipe filled: most of 30,000 lines of 1+ KB could not be taken.
    expect(dropped).toBeGreaterThan(0);

    // Read again: what was buffered arrives, then the line saying how many were dropped.
    const before = server.logs().length;
    server.resumeStdout();
    let report: Record<string, unknown> | undefined;
    for (let waited = 0; report === undefined && waited < 30_000; waited += 100) {
      await sleep(100);
      report = jsonLines(server.logs().slice(before)).find((line) => line.dropped_lines !== undefined);
    }
    expect(report).toMatchObject({ level: 40, dropped_lines: dropped });
    const accessLines = jsonLines(server.logs().slice(before)).filter((line) => line.req !== undefined);
    expect(accessLines.length).toBeGreaterThan(0);
    for (const line of accessLines) {
      const req = line.req as { url: string; url_length?: number };
      expect(req.url.length).toBeLessThanOrEqual(1024);
      if (req.url.startsWith('/v1/titles/tt1')) expect(req.url_length).toBe(LONG_URL_LENGTH);
    }
    console.info(
      JSON.stringify({ linesReadAfterResume: accessLines.length, reported: report?.dropped_lines }),
    );
  }, 300_000);
});
