import { Agent, get as httpGet } from 'node:http';
import { type CliResult, runCli } from './support/cli';
import { freePort } from './support/free-port';
import { FixtureFiles } from './support/imdb-files';
import { PostgresServer } from './support/postgres-cluster';
import { ServerProcess } from './support/server-process';
import { storyCatalogFiles } from './support/story-catalog';
import { TcpProxy } from './support/tcp-proxy';
import { eventually, sleep } from './support/timing';

const DATABASE = 'catalog';
const COUNT = 300;
const imdbId = (i: number) => `tt${7_100_000 + i}`;
/** Fewer than the searches a replica always serves (8): no search may be refused as overload. */
const CLIENTS = 6;
/** The shortest deadline a request's reads have: /health's and the state reads' 2 s. */
const SHORTEST_DEADLINE_MS = 2_000;

interface Outcome {
  path: string;
  startedAt: number;
  ms: number;
  status: number | 'socket';
  body: string;
}

/**
 * A read replica partitioned silently (a proxy in front of it holds every byte: no reset, no refusal)
 * costs no failed request: reads, searches and /health waiting on it move to the primary when a
 * check finds it unreachable (within REPLICA_CHECK_MS + REPLICA_CHECK_TIMEOUT_MS), inside their own
 * deadlines, and every request after that goes to the primary.
 */
describe('a silently partitioned read replica', () => {
  let primary: PostgresServer;
  let replica: PostgresServer;
  let proxy: TcpProxy;
  let server: ServerProcess;
  let files: FixtureFiles;
  let metricsPort: number;
  let key: string;
  const agent = new Agent({ keepAlive: true, maxSockets: 32 });

  const cli = (args: string[]): Promise<CliResult> =>
    runCli(args, { PATH: process.env.PATH, LOG_LEVEL: 'silent', DATABASE_URL: primary.url(DATABASE) });
  const metrics = (): Promise<string> =>
    new Promise((resolve, reject) => {
      httpGet({ host: '127.0.0.1', port: metricsPort, path: '/metrics', agent: false }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
        res.on('end', () => resolve(body));
      }).on('error', reject);
    });
  const serving = async () => /db_read_target_serving\{target="([^"]+)"\} 1\n/.exec(await metrics())?.[1];

  beforeAll(async () => {
    primary = await PostgresServer.primary();
    await primary.query('postgres', `CREATE DATABASE ${DATABASE}`);
    replica = await primary.streamingReplica();
    files = new FixtureFiles();
    expect(await cli(['db:migrate'])).toMatchObject({ code: 0 });
    const catalog = storyCatalogFiles(files, 'story', { count: COUNT, marker: 'Alpha', year: 1990 }, imdbId);
    expect(
      await cli(['catalog:ingest', '--basics', catalog.basics, '--ratings', catalog.ratings]),
    ).toMatchObject({ code: 0 });
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
    key = (JSON.parse(created.stdout) as { key: string }).key;

    proxy = new TcpProxy(await freePort(), { host: '127.0.0.1', port: replica.port });
    await proxy.restore();
    const replicaUrl = new URL(replica.url(DATABASE));
    replicaUrl.host = `127.0.0.1:${proxy.port}`;
    metricsPort = await freePort();
    server = await ServerProcess.start(await freePort(), {
      DATABASE_URL: primary.url(DATABASE),
      DATABASE_READ_URL: replicaUrl.toString(),
      METRICS_PORT: String(metricsPort),
    });
    await eventually(async () => (await serving()) !== 'primary', 10_000, 100);
  }, 180_000);

  afterAll(async () => {
    await server?.stop('SIGKILL');
    agent.destroy();
    proxy?.heal();
    await proxy?.cut();
    files?.cleanup();
    primary?.remove(replica ? [replica] : []);
  });

  it('fails no request: reads, searches and /health move to the primary before their deadlines', async () => {
    const ask = async (path: string): Promise<Outcome> => {
      const startedAt = Date.now();
      const answer = await server.get(path, { Authorization: `Bearer ${key}` }, agent).catch(() => null);
      return {
        path,
        startedAt,
        ms: Date.now() - startedAt,
        status: answer?.status ?? 'socket',
        body: answer?.body ?? '',
      };
    };
    // Every request needs a read (none repeats, so no cache answers it) or is /health.
    const routes: Array<(n: number) => string> = [
      (n) => `/v1/titles/${imdbId(n % COUNT)}`,
      (n) => `/v1/search?q=story+${n % COUNT}&page=${1 + (n % 3)}`,
      (n) => `/v1/movies?limit=${1 + (n % 20)}&page=${1 + Math.floor(n / 20)}`,
      (n) => `/v1/series?limit=${1 + (n % 20)}&page=${1 + Math.floor(n / 20)}`,
      () => '/health',
    ];
    let done = false;
    let n = 0;
    const outcomes: Outcome[] = [];
    const load = Promise.all(
      Array.from({ length: CLIENTS }, async (_, client) => {
        while (!done) {
          const i = n++;
          outcomes.push(await ask(routes[(i + client) % routes.length](i)));
        }
      }),
    );
    await sleep(1_500);
    const partitionedAt = Date.now();
    proxy.partition();
    const leftOutAfterMs = await eventually(async () => (await serving()) === 'primary', 5_000, 20);
    await sleep(3_000);
    done = true;
    await load;

    const during = outcomes.filter((outcome) => outcome.startedAt + outcome.ms >= partitionedAt);
    const failed = outcomes.filter((outcome) => outcome.status !== 200);
    const slowest = Math.max(...during.map((outcome) => outcome.ms));
    console.info(
      `replica partitioned: ${outcomes.length} requests (${during.length} answered after the partition), ` +
        `left out after ${leftOutAfterMs} ms, slowest answer since ${slowest} ms, ${failed.length} failed`,
    );
    expect(
      failed.map((outcome) => `${outcome.path}: ${outcome.status} ${outcome.body.slice(0, 120)}`),
    ).toEqual([]);
    expect(during.filter((outcome) => outcome.path === '/health').length).toBeGreaterThan(0);
    expect(during.filter((outcome) => outcome.path.startsWith('/v1/search')).length).toBeGreaterThan(0);
    // Found within a check's interval and timeout (REPLICA_CHECK_MS + REPLICA_CHECK_TIMEOUT_MS, 1 s,
    // later only by a busy event loop's timers), and so every answer inside the shortest deadline.
    expect(leftOutAfterMs).toBeLessThan(SHORTEST_DEADLINE_MS);
    expect(slowest).toBeLessThan(SHORTEST_DEADLINE_MS);
  }, 120_000);
});
