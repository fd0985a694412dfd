import { Agent, get as httpGet } from 'node:http';
import { type CliResult, runCli } from './support/cli';
import { freePort } from './support/free-port';
import { FixtureFiles } from './support/imdb-files';
import { PostgresServer } from './support/postgres-cluster';
import { type HttpAnswer, ServerProcess } from './support/server-process';
import { type StoryCatalog, storyCatalogFiles } from './support/story-catalog';
import { eventually, sleep } from './support/timing';

/**
 * A PostgreSQL primary and a hot standby streaming from it, both started by
 * the test (Debian's binaries, free ports, a temporary directory), and the built service with
 * DATABASE_URL on the primary and DATABASE_READ_URL on the replica. Catalog reads are served by the
 * replica (its own statistics say so) while keys and usage are written on the primary; a re-ingest
 * on the primary is served from the replica wholly old or wholly new; stopping the replica under
 * load costs no 5xx past the requests in flight, a replica that stops replaying is left out within
 * 5 s, and either comes back by itself.
 */

const DATABASE = 'catalog';
const OLD = { count: 300, marker: 'Alpha', year: 1990 };
const NEW = { count: 400, marker: 'Beta', year: 2020 };
const imdbId = (i: number) => `tt${7_000_000 + i}`;
const CLIENTS = 4;
/** What the keys' months hold (reserved blocks count as used: at least every answered request). */
const MONTH_USED_SQL =
  "SELECT coalesce(sum(reserved), 0) AS used FROM quota_counters WHERE key LIKE 'month:%'";

interface Outcome {
  path: string;
  startedAt: number;
  endedAt: number;
  status: number | 'socket';
  body: string;
  etag: string | undefined;
}

describe('catalog reads on a streaming replica (DATABASE_READ_URL)', () => {
  let primary: PostgresServer;
  let replica: PostgresServer;
  let server: ServerProcess;
  let files: FixtureFiles;
  let metricsPort: number;
  let key: string;
  const agent = new Agent({ keepAlive: true, maxSockets: 32 });

  const env = () => ({ DATABASE_URL: primary.url(DATABASE), DATABASE_READ_URL: replica.url(DATABASE) });
  const cli = (args: string[]): Promise<CliResult> =>
    runCli(args, { PATH: process.env.PATH, LOG_LEVEL: 'silent', ...env() });
  const catalogFiles = (name: string, spec: StoryCatalog) => storyCatalogFiles(files, name, spec, imdbId);

  const replicaTarget = () => `127.0.0.1:${replica.port}`;
  const metrics = (): Promise<string> =>
    new Promise((resolve, reject) => {
      httpGet({ host: '127.0.0.1', port: metricsPort, path: '/metrics', agent: false }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
        res.on('end', () => resolve(body));
      }).on('error', reject);
    });
  const serving = async (): Promise<string | undefined> =>
    /db_read_target_serving\{target="([^"]+)"\} 1\n/.exec(await metrics())?.[1];
  const replicaUp = async (): Promise<boolean> =>
    (await metrics()).includes(`db_read_target_up{target="${replicaTarget()}"} 1`);

  /** Transactions a server's catalog database has finished (its statistics, flushed within ~10 s). */
  const transactions = async (on: PostgresServer): Promise<number> => {
    const [row] = await on.query<{ n: string }>(
      DATABASE,
      'SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = $1',
      [DATABASE],
    );
    return Number(row.n);
  };

  const ask = async (path: string): Promise<Outcome> => {
    const startedAt = Date.now();
    const answer: HttpAnswer | null = await server
      .get(path, { Authorization: `Bearer ${key}` }, agent)
      .catch(() => null);
    return {
      path,
      startedAt,
      endedAt: Date.now(),
      status: answer?.status ?? 'socket',
      body: answer?.body ?? '',
      etag: answer?.headers.etag as string | undefined,
    };
  };

  const routes: Array<(n: number) => string> = [
    (n) => `/v1/titles/${imdbId((n * 7) % 30)}`, // a hot set: cached lookups
    (n) => `/v1/titles/${imdbId((n * 37) % OLD.count)}`,
    () => `/v1/search?q=story&limit=10`,
    (n) => `/v1/search?q=story+${n % 200}&limit=5`,
    () => `/v1/movies?limit=20`,
    (n) => `/v1/series?limit=10&page=${1 + (n % 8)}`,
    () => `/health`,
  ];

  /** Asks the mixed routes from CLIENTS clients until `until()` says stop. */
  const load = async (until: () => boolean): Promise<Outcome[]> => {
    const outcomes: Outcome[] = [];
    let n = 0;
    await Promise.all(
      Array.from({ length: CLIENTS }, async (_, client) => {
        while (!until()) {
          const i = n++;
          outcomes.push(await ask(routes[(i + client) % routes.length](i)));
        }
      }),
    );
    return outcomes;
  };

  /** Answers that are not wholly one catalog, or whose ETag named another catalog's answer. */
  const mixedAnswers = (outcomes: Outcome[]): string[] => {
    const years = new Map([
      [OLD.marker, OLD.year],
      [NEW.marker, NEW.year],
    ]);
    const markerOfEtag = new Map<string, string>();
    const problems: string[] = [];
    for (const outcome of outcomes) {
      if (outcome.status !== 200 || outcome.path === '/health') continue;
      const body = JSON.parse(outcome.body) as {
        data: { title: string; year: number } | Array<{ title: string; year: number }>;
      };
      const titles = Array.isArray(body.data) ? body.data : [body.data];
      const markers = new Set(titles.map((title) => title.title.split(' ')[0]));
      if (markers.size > 1) problems.push(`${outcome.path}: ${[...markers].join('+')} in one answer`);
      for (const title of titles) {
        if (years.get(title.title.split(' ')[0]) !== title.year)
          problems.push(`${outcome.path}: ${JSON.stringify(title)}`);
      }
      const [marker] = markers;
      if (outcome.etag && marker) {
        const etagKey = `${outcome.path} ${outcome.etag}`;
        if ((markerOfEtag.get(etagKey) ?? marker) !== marker)
          problems.push(`${etagKey}: two catalogs under one ETag`);
        markerOfEtag.set(etagKey, marker);
      }
    }
    return problems;
  };

  /**
   * Answers other than 200, each with its path, and the server's log lines about them. None may be a
   * search refused under overload either: CLIENTS searching at once are fewer than the searches a
   * replica always serves (ALWAYS_SERVED_SEARCHES, docs/search.md).
   */
  const failures = (outcomes: Outcome[]): string[] => {
    const failed = outcomes.filter((outcome) => outcome.status !== 200);
    return failed
      .map((outcome) => `${outcome.path}: ${outcome.status} ${outcome.body.slice(0, 120)}`)
      .concat(failed.length > 0 ? [server.logs().slice(-3_000)] : []);
  };

  const statusCounts = (outcomes: Outcome[]) => {
    const counts: Record<string, number> = {};
    for (const { status } of outcomes) {
      const label = String(status);
      counts[label] = (counts[label] ?? 0) + 1;
    }
    return counts;
  };

  beforeAll(async () => {
    primary = await PostgresServer.primary();
    await primary.query('postgres', `CREATE DATABASE ${DATABASE}`);
    replica = await primary.streamingReplica();
    files = new FixtureFiles();

    // The CLI with the replica configured too: its writes (schema, catalog, keys) go to the primary.
    expect(await cli(['db:migrate'])).toMatchObject({ code: 0, stderr: '' });
    const old = catalogFiles('old', OLD);
    expect(await cli(['catalog:ingest', '--basics', old.basics, '--ratings', old.ratings])).toMatchObject({
      code: 0,
      stderr: '',
    });
    const created = await cli([
      'keys:create',
      '--name',
      'load',
      '--rpm',
      '1000000',
      '--monthly-quota',
      '100000000',
      '--json',
    ]);
    expect(created).toMatchObject({ code: 0, stderr: '' });
    key = (JSON.parse(created.stdout) as { key: string }).key;

    metricsPort = await freePort();
    server = await ServerProcess.start(await freePort(), {
      ...env(),
      METRICS_PORT: String(metricsPort),
      SHUTDOWN_GRACE_MS: '0',
    });
  }, 120_000);

  afterAll(async () => {
    await server?.stop('SIGKILL');
    agent.destroy();
    files?.cleanup();
    primary?.remove(replica ? [replica] : []);
  });

  it('serves catalog reads from the replica and writes keys and usage on the primary', async () => {
    expect(await serving()).toBe(replicaTarget());
    // Both servers' statistics settle (a backend flushes its counts within ~10 s of going idle).
    await sleep(11_000);
    const before = { replica: await transactions(replica), primary: await transactions(primary) };
    const usedBefore = await primary.query<{ used: string | null }>(DATABASE, MONTH_USED_SQL);

    // One at a time: concurrent lookups that miss share statements, and each of these is one.
    const lookups: Outcome[] = [];
    for (let i = 0; i < OLD.count; i++) lookups.push(await ask(`/v1/titles/${imdbId(i)}`));
    expect(statusCounts(lookups)).toEqual({ 200: OLD.count });
    expect(mixedAnswers(lookups)).toEqual([]);

    // Every distinct lookup is one statement where reads are served: on the replica.
    await eventually(async () => (await transactions(replica)) - before.replica >= OLD.count, 15_000, 500);
    await sleep(11_000);
    const onPrimary = (await transactions(primary)) - before.primary;
    console.info(
      `read replica: ${OLD.count} lookups cost the replica ${(await transactions(replica)) - before.replica} transactions, the primary ${onPrimary}`,
    );
    expect(onPrimary).toBeLessThan(OLD.count / 2);

    // The usage was counted on the primary (the replica is read-only).
    const [usedAfter] = await primary.query<{ used: string }>(DATABASE, MONTH_USED_SQL);
    expect(Number(usedAfter.used) - Number(usedBefore[0].used ?? 0)).toBeGreaterThanOrEqual(OLD.count);
    const connections = await replica.query<{ name: string }>(
      DATABASE,
      "SELECT DISTINCT application_name AS name FROM pg_stat_activity WHERE application_name LIKE 'catalog-api%' ORDER BY 1",
    );
    expect(connections.map((row) => row.name)).toContain('catalog-api-read');
  }, 90_000);

  it('serves a re-ingest on the primary from the replica, each answer wholly the old or the new catalog', async () => {
    const fresh = catalogFiles('new', NEW);
    let loading = true;
    const servedBy = new Set<string | undefined>();
    const sampling = (async () => {
      while (loading) {
        servedBy.add(await serving());
        await sleep(200);
      }
    })();
    const ingest = sleep(500)
      .then(() => cli(['catalog:ingest', '--basics', fresh.basics, '--ratings', fresh.ratings]))
      .finally(() => setTimeout(() => (loading = false), 1_500));
    const outcomes = await load(() => !loading);
    await sampling;
    expect(await ingest).toMatchObject({ code: 0, stderr: '' });

    console.info(
      `read replica, re-ingest: ${outcomes.length} requests, statuses ${JSON.stringify(statusCounts(outcomes))}`,
    );
    expect(failures(outcomes)).toEqual([]);
    expect(mixedAnswers(outcomes)).toEqual([]);
    expect(servedBy).toContain(replicaTarget());

    // The replica replays the commit; the new catalog is served from it.
    await eventually(
      async () => (await ask(`/v1/titles/${imdbId(7)}`)).body.includes(NEW.marker),
      5_000,
      100,
    );
    expect(await serving()).toBe(replicaTarget());
  }, 90_000);

  it('stops the replica under load with no 5xx past the requests in flight, and takes it back when it restarts', async () => {
    let stopped: { from: number; to: number } | null = null;
    let leftOutAfterMs: number | null = null;
    let done = false;
    const stopping = (async () => {
      try {
        await sleep(1_500);
        const from = Date.now();
        replica.stop();
        stopped = { from, to: Date.now() };
        leftOutAfterMs = await eventually(async () => (await serving()) === 'primary', 5_000, 100).then(
          (ms) => ms + (stopped!.to - stopped!.from),
        );
        await sleep(3_000);
      } finally {
        done = true;
      }
    })();
    const outcomes = await load(() => done);
    await stopping;

    const upWhileStopped = await replicaUp();
    // Restarted (before any assertion, so the next test finds it running), it is back in rotation
    // by itself and serves the reads again: checked below.
    replica.start();

    const failedLater = failures(outcomes.filter((outcome) => outcome.startedAt > stopped!.to));
    const inFlight = outcomes.filter(
      (outcome) => outcome.startedAt <= stopped!.to && outcome.endedAt >= stopped!.from,
    );
    console.info(
      `read replica stopped: ${outcomes.length} requests, statuses ${JSON.stringify(statusCounts(outcomes))}, ${inFlight.length} in flight at the stop, left out after ${leftOutAfterMs} ms`,
    );
    expect(failedLater).toEqual([]);
    expect(leftOutAfterMs).toBeLessThanOrEqual(5_000);
    expect(upWhileStopped).toBe(false);
    expect(mixedAnswers(outcomes)).toEqual([]);

    await eventually(async () => (await serving()) === replicaTarget(), 10_000, 200);
    await sleep(11_000);
    const before = await transactions(replica);
    // Ids no request asked before (unknown: 404), so no cache can answer them: each is one read,
    // asked one at a time (concurrent misses share statements).
    const lookups: Outcome[] = [];
    for (let i = 0; i < 200; i++) lookups.push(await ask(`/v1/titles/${imdbId(900_000 + i)}`));
    expect(statusCounts(lookups)).toEqual({ 404: 200 });
    await eventually(async () => (await transactions(replica)) - before >= 100, 15_000, 500);
  }, 120_000);

  it('leaves out a replica that stops replaying within 5 s, reads going to the primary, and takes it back once it caught up', async () => {
    expect(await serving()).toBe(replicaTarget());
    await replica.query(DATABASE, 'SELECT pg_wal_replay_pause()');
    let done = false;
    const paused = Date.now();
    // The primary keeps writing (the load's usage counts, and this table), which the replica no longer replays.
    await primary.query(DATABASE, 'CREATE TABLE replay_probe (n int)');
    const writing = (async () => {
      while (!done) {
        await primary.query(DATABASE, 'INSERT INTO replay_probe VALUES (1)');
        await sleep(100);
      }
    })();
    const watching = (async () => {
      try {
        await eventually(async () => (await serving()) === 'primary', 5_000, 100);
        const leftOutAfter = Date.now() - paused;
        await replica.query(DATABASE, 'SELECT pg_wal_replay_resume()');
        const backAfter = await eventually(async () => (await serving()) === replicaTarget(), 10_000, 100);
        return { leftOutAfter, backAfter };
      } finally {
        done = true;
      }
    })();
    const outcomes = await load(() => done);
    await writing;
    const { leftOutAfter, backAfter } = await watching;
    console.info(
      `read replica paused: left out after ${leftOutAfter} ms, back ${backAfter} ms after it resumed; ${outcomes.length} requests, statuses ${JSON.stringify(statusCounts(outcomes))}`,
    );
    expect(leftOutAfter).toBeLessThanOrEqual(5_000);
    expect(failures(outcomes)).toEqual([]);
    expect(mixedAnswers(outcomes)).toEqual([]);
    expect(await metrics()).toMatch(
      new RegExp(`db_read_target_lag_seconds\\{target="${replicaTarget()}"\\} 0\\b`),
    );
  }, 60_000);
});
