import { Agent } from 'node:http';
import { type CliResult, cliEnvironment, runCli } from './support/cli';
import { freePort } from './support/free-port';
import { FixtureFiles } from './support/imdb-files';
import { PgBouncer } from './support/pgbouncer';
import { type HttpAnswer, ServerProcess } from './support/server-process';
import { type StoryCatalog, storyCatalogFiles } from './support/story-catalog';
import { type TestDatabase, createTestDatabase } from './support/test-database';
import { awaitRoomInMinute, eventually } from './support/timing';

/**
 * The fleet behind a transaction pooler with no setup. Debian's PgBouncer 1.18 in
 * transaction mode (consecutive transactions of one client land on different server connections;
 * no prepared statements, no start-up parameters beyond the usual): the schema migrated through it,
 * keys created through it, three built replicas on it, and ≥ 10,000 mixed requests (lookups,
 * searches, list pages, /health) while the CLI re-ingests (its session on DATABASE_DIRECT_URL).
 * No 500, not even a search refused under overload (six clients per replica, each one request at a
 * time, are a few: `ALWAYS_SERVED_SEARCHES`), every answer wholly one catalog, a per-minute limit
 * exact across the replicas.
 */

const REPLICAS = 3;
const TOTAL_REQUESTS = 10_000;
const CLIENTS_PER_REPLICA = 6;
const OLD = { count: 400, marker: 'Alpha', year: 1990 };
const NEW = { count: 600, marker: 'Beta', year: 2020 };
const LIMITED_RPM = 50;
const imdbId = (i: number) => `tt${8_000_000 + i}`;

describe('three replicas behind PgBouncer in transaction mode', () => {
  let database: TestDatabase;
  let bouncer: PgBouncer;
  let files: FixtureFiles;
  let replicas: ServerProcess[] = [];
  let directUrl: string;
  let bouncedUrl: string;
  let loadKey: string;
  let limitedKey: string;
  const agents = Array.from({ length: REPLICAS }, () => new Agent({ keepAlive: true, maxSockets: 32 }));

  /** The CLI as an operator runs it behind the pooler: DATABASE_URL through it, the direct URL beside. */
  const cli = (args: string[], direct = true): Promise<CliResult> => {
    const env = cliEnvironment({ kind: 'postgres', url: bouncedUrl });
    if (direct) env.DATABASE_DIRECT_URL = directUrl;
    return runCli(args, env);
  };
  const catalogFiles = (name: string, spec: StoryCatalog) => storyCatalogFiles(files, name, spec, imdbId);
  const createKey = async (name: string, rpm: number): Promise<string> => {
    const created = await cli([
      'keys:create',
      '--name',
      name,
      '--rpm',
      String(rpm),
      '--monthly-quota',
      '10000000',
      '--json',
    ]);
    expect(created).toMatchObject({ code: 0, stderr: '' });
    return (JSON.parse(created.stdout) as { key: string }).key;
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    if (database.config.kind !== 'postgres') throw new Error('PostgreSQL only');
    directUrl = database.config.url;
    bouncer = await PgBouncer.inFrontOf(directUrl);
    bouncedUrl = bouncer.url(directUrl);
    files = new FixtureFiles();

    // Migrations through the pooler alone (their lock is transaction-scoped).
    expect(await cli(['db:migrate'], false)).toMatchObject({ code: 0, stderr: '' });
    const old = catalogFiles('old', OLD);
    expect(await cli(['catalog:ingest', '--basics', old.basics, '--ratings', old.ratings])).toMatchObject({
      code: 0,
      stderr: '',
    });
    loadKey = await createKey('load', 1_000_000);
    limitedKey = await createKey('limited', LIMITED_RPM);

    const ports = await Promise.all(Array.from({ length: REPLICAS }, () => freePort()));
    replicas = await Promise.all(
      ports.map((port) => ServerProcess.start(port, { DATABASE_URL: bouncedUrl, SHUTDOWN_GRACE_MS: '0' })),
    );
  }, 180_000);

  afterAll(async () => {
    await Promise.all(replicas.map((replica) => replica.stop('SIGKILL')));
    for (const agent of agents) agent.destroy();
    files?.cleanup();
    await bouncer?.stop();
    await database?.drop();
  });

  const ask = (replica: number, path: string, key: string): Promise<HttpAnswer | null> =>
    replicas[replica].get(path, { Authorization: `Bearer ${key}` }, agents[replica]).catch(() => null);

  it('answers 10,000 mixed requests with no 500 while the CLI re-ingests, one catalog per answer', async () => {
    const catalogs = new Map([
      [OLD.marker, OLD],
      [NEW.marker, NEW],
    ]);
    const statuses = new Map<string, number>();
    const problems: string[] = [];
    const routes: Array<(n: number) => string> = [
      (n) => `/v1/titles/${imdbId((n * 7) % 40)}`, // a hot set: cached lookups
      (n) => `/v1/titles/${imdbId((n * 37) % OLD.count)}`,
      () => `/v1/search?q=story&limit=10`,
      (n) => `/v1/search?q=story+${n % 300}&limit=5`,
      () => `/v1/movies?limit=20`,
      (n) => `/v1/series?limit=10&page=${1 + (n % 12)}`,
      () => `/health`,
    ];
    const check = (path: string, answer: HttpAnswer | null) => {
      const status = answer ? String(answer.status) : 'socket';
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      if (!answer || answer.status !== 200) {
        if (answer?.status !== 404) problems.push(`${path}: ${status} ${answer?.body.slice(0, 200) ?? ''}`);
        return;
      }
      if (path === '/health') return;
      const body = JSON.parse(answer.body) as { data: Array<{ title: string; year: number }> };
      const markers = new Set(body.data.map((title) => title.title.split(' ')[0]));
      for (const title of body.data) {
        if (catalogs.get(title.title.split(' ')[0])?.year !== title.year) {
          problems.push(`${path}: mixed title ${JSON.stringify(title)}`);
        }
      }
      if (markers.size > 1) problems.push(`${path}: ${markers.size} catalogs in one answer`);
    };

    const fresh = catalogFiles('new', NEW);
    let sent = 0;
    let ingest: Promise<CliResult> | null = null;
    let loading = false;
    const client = async (replica: number, offset: number) => {
      while (sent < TOTAL_REQUESTS || loading) {
        const n = sent++;
        // The re-ingest starts a fifth of the way in, and the load lasts until it is done.
        if (n === TOTAL_REQUESTS / 5) {
          loading = true;
          ingest = cli(['catalog:ingest', '--basics', fresh.basics, '--ratings', fresh.ratings]).finally(
            () => (loading = false),
          );
        }
        const path = routes[(n + offset) % routes.length](n);
        check(path, await ask(replica, path, loadKey));
      }
    };
    await Promise.all(
      replicas.flatMap((_, r) => Array.from({ length: CLIENTS_PER_REPLICA }, (_, c) => client(r, c))),
    );
    expect(ingest).not.toBeNull();
    const loaded = await ingest!;
    expect({ code: loaded.code, stderr: loaded.stderr }).toEqual({ code: 0, stderr: '' });
    console.info(
      `behind PgBouncer: ${sent} requests, statuses ${JSON.stringify(Object.fromEntries(statuses))}`,
    );
    expect(problems.slice(0, 10)).toEqual([]);
    expect(sent).toBeGreaterThanOrEqual(TOTAL_REQUESTS);
    expect([...statuses.keys()].filter((status) => status !== '200' && status !== '404')).toEqual([]);
    expect(bouncer.log()).not.toMatch(/prepared statement|unsupported startup parameter/);

    // The new catalog is served everywhere within a second (one state poll plus a query) of the
    // load's end, cached lookups included.
    const elapsed = await eventually(
      async () => {
        for (let r = 0; r < REPLICAS; r++) {
          const answer = await ask(r, `/v1/titles/${imdbId(7)}`, loadKey);
          if (!answer?.body.includes(NEW.marker)) return false;
        }
        return true;
      },
      1_000,
      20,
    );
    console.info(`behind PgBouncer: the new catalog on every replica ${elapsed} ms after the load's end`);
  }, 240_000);

  it('accepts exactly the per-minute limit of a key asked on all three replicas at once', async () => {
    await awaitRoomInMinute(20);
    const answers = await Promise.all(
      Array.from({ length: LIMITED_RPM * 3 }, (_, i) => ask(i % REPLICAS, '/v1/movies?limit=1', limitedKey)),
    );
    const codes = answers.map((answer) =>
      answer?.status === 200
        ? '200'
        : answer
          ? (JSON.parse(answer.body) as { error: { code: string } }).error.code
          : 'socket',
    );
    expect(codes.filter((code) => code === '200')).toHaveLength(LIMITED_RPM);
    expect(codes.filter((code) => code === 'RATE_LIMITED')).toHaveLength(LIMITED_RPM * 2);
  }, 60_000);
});
