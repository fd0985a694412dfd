/**
 * PostgreSQL transactions per 1,000 requests, by class, direct and through PgBouncer: what a fleet's
 * database pays per answer. Options, counting and timings: bench/README.md.
 *
 *   npm run build && npx ts-node --transpile-only bench/db-transactions.ts [--titles 30000] [--seconds 20]
 *     [--admin-url postgres://postgres@127.0.0.1:5432/postgres] [--paths direct,pgbouncer,pgbouncer-direct]
 */
import autocannon from 'autocannon';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from 'pg';
import { freePort } from '../test/support/free-port';
import { PgBouncer } from '../test/support/pgbouncer';
import { ServerProcess } from '../test/support/server-process';

const { values } = parseArgs({
  options: {
    titles: { type: 'string', default: '30000' },
    seconds: { type: 'string', default: '20' },
    'admin-url': { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/postgres' },
    paths: { type: 'string', default: 'direct,pgbouncer,pgbouncer-direct' },
  },
});
const TITLES = Number(values.titles);
if (TITLES > 100_000) throw new Error('keep the catalog at 100,000 titles or fewer');
const SECONDS = Number(values.seconds);
const QUIET_MS = 11_000;
/** Words × 50 pages: enough distinct searches that none repeats within a run at this machine's rates. */
const DISTINCT_SEARCH_WORDS = 2_000;
const PATH_NAMES = ['direct', 'pgbouncer', 'pgbouncer-direct'] as const;
const SELECTED_PATHS = values.paths!.split(',').map((name) => name.trim());
for (const name of SELECTED_PATHS) {
  if (!(PATH_NAMES as readonly string[]).includes(name)) {
    throw new Error(`unknown path ${name}: --paths takes ${PATH_NAMES.join(', ')}`);
  }
}
const ROOT = join(__dirname, '..');
const CLI = join(ROOT, 'dist', 'cli.js');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface RequestClass {
  name: string;
  path: () => string;
}

function requestClasses(ids: string[], words: string[], lastPage: number): RequestClass[] {
  const hot = ids.slice(0, 200);
  let next = 0;
  let distinct = 200;
  let search = 0;
  return [
    { name: 'cached lookups (200 ids)', path: () => `/v1/titles/${hot[next++ % hot.length]}` },
    { name: 'uncached lookups (distinct ids)', path: () => `/v1/titles/${ids[distinct++ % ids.length]}` },
    { name: 'repeated search', path: () => '/v1/search?q=the' },
    {
      name: 'distinct searches',
      path: () =>
        `/v1/search?q=${words[search % words.length]}&page=${1 + (Math.floor(search++ / words.length) % 50)}`,
    },
    { name: 'list page 1', path: () => '/v1/movies?limit=20' },
    {
      name: 'list random pages',
      path: () => `/v1/movies?limit=20&page=${1 + Math.floor(Math.random() * lastPage)}`,
    },
  ];
}

async function transactions(admin: Client, database: string): Promise<number> {
  const { rows } = await admin.query<{ n: string }>(
    'SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = $1',
    [database],
  );
  return Number(rows[0].n);
}

/** A run of `seconds`, or of `amount` requests (the warm-up). */
function load(
  url: string,
  key: string,
  connections: number,
  length: { seconds?: number; amount?: number },
  path: () => string,
) {
  return autocannon({
    url,
    connections,
    ...(length.amount ? { amount: length.amount } : { duration: length.seconds }),
    headers: { Authorization: `Bearer ${key}` },
    requests: [{ method: 'GET', setupRequest: (request) => ({ ...request, path: path() }) }],
  });
}

function cli(args: string[], env: NodeJS.ProcessEnv): string {
  return execFileSync(process.execPath, [CLI, ...args], {
    env: { PATH: process.env.PATH, LOG_LEVEL: 'silent', ...env },
    encoding: 'utf8',
  });
}

async function main(): Promise<void> {
  const adminUrl = new URL(values['admin-url']!);
  const admin = new Client({ connectionString: adminUrl.toString() });
  await admin.connect();
  const database = `fleet_bench_${process.pid}`;
  await admin.query(`CREATE DATABASE ${database}`);
  const directUrl = new URL(adminUrl);
  directUrl.pathname = `/${database}`;
  const bouncer = await PgBouncer.start({ host: adminUrl.hostname, port: Number(adminUrl.port || 5432) });
  try {
    const out = join(ROOT, 'bench', 'out', `dbtx-${TITLES}`);
    if (!existsSync(join(out, 'title.basics.tsv'))) {
      execFileSync(
        'npx',
        [
          'ts-node',
          '--transpile-only',
          'bench/generate-catalog.ts',
          '--titles',
          String(TITLES),
          '--out',
          out,
        ],
        {
          cwd: ROOT,
          stdio: 'inherit',
        },
      );
    }
    const env = { DATABASE_URL: directUrl.toString() };
    cli(
      [
        'catalog:ingest',
        '--basics',
        join(out, 'title.basics.tsv'),
        '--ratings',
        join(out, 'title.ratings.tsv'),
      ],
      env,
    );
    const { key } = JSON.parse(
      cli(
        ['keys:create', '--name', 'bench', '--rpm', '1000000', '--monthly-quota', '1000000000', '--json'],
        env,
      ),
    ) as { key: string };

    const db = new Client({ connectionString: directUrl.toString() });
    await db.connect();
    const ids = (
      await db.query<{ imdb_id: string }>('SELECT imdb_id FROM titles ORDER BY random()')
    ).rows.map((row) => row.imdb_id);
    const words = (
      await db.query<{ word: string }>(
        `SELECT DISTINCT lower(w) AS word FROM titles, regexp_split_to_table(title, '[^A-Za-z]+') w
         WHERE length(w) >= 4 LIMIT ${DISTINCT_SEARCH_WORDS}`,
      )
    ).rows.map((row) => row.word);
    const [{ movies }] = (
      await db.query<{ movies: number }>('SELECT movie_count AS movies FROM catalog_state')
    ).rows;
    await db.end();
    const classes = requestClasses(ids, words, Math.max(1, Math.floor(movies / 20)));

    console.log(
      `| path | connections | class | requests | req/s | non-2xx | transactions | per 1,000 | per 1,000 net of the quiet seconds' idle rate |`,
    );
    console.log('|---|---|---|---|---|---|---|---|---|');
    const bounced = bouncer.url(directUrl.toString());
    const paths = [
      {
        name: 'direct',
        via: 'direct',
        env: { DATABASE_URL: directUrl.toString() },
      },
      { name: 'pgbouncer', via: 'PgBouncer', env: { DATABASE_URL: bounced } },
      {
        name: 'pgbouncer-direct',
        via: 'PgBouncer + DATABASE_DIRECT_URL',
        env: { DATABASE_URL: bounced, DATABASE_DIRECT_URL: directUrl.toString() },
      },
    ].filter((path) => SELECTED_PATHS.includes(path.name));
    // PgBouncer without DATABASE_DIRECT_URL has no change feed (it polls); with it, as
    // docs/operations.md advises, the feed listens on the direct URL.
    for (const { via, env: serverEnv } of paths) {
      const server = await ServerProcess.start(await freePort(), { ...serverEnv, SHUTDOWN_GRACE_MS: '0' });
      try {
        await sleep(QUIET_MS);
        const idleFrom = await transactions(admin, database);
        const idleStartedAt = Date.now();
        await sleep(2 * QUIET_MS);
        const idlePerMs = ((await transactions(admin, database)) - idleFrom) / (Date.now() - idleStartedAt);
        console.log(
          `| ${via} | — | idle (no requests) | 0 | 0 | 0 | ${(idlePerMs * 1000).toFixed(2)} a second | — | — |`,
        );
        for (const connections of [4, 50]) {
          for (const requestClass of classes) {
            // Warm-up: every hot id and the repeated search asked at least twice (a cache keeps an
            // answer on its second miss).
            await load(server.baseUrl, key, connections, { amount: 1_000 }, requestClass.path);
            await sleep(QUIET_MS);
            const before = await transactions(admin, database);
            const startedAt = Date.now();
            const result = await load(
              server.baseUrl,
              key,
              connections,
              { seconds: SECONDS },
              requestClass.path,
            );
            await sleep(QUIET_MS);
            const after = await transactions(admin, database);
            const windowMs = Date.now() - startedAt;
            // Sent, not only completed: the requests in flight when the load stopped ran their statements too.
            const answered = result.requests.sent;
            const counted = after - before;
            const quietBackground = idlePerMs * (windowMs - result.duration * 1000);
            const per = (n: number) => ((n / answered) * 1000).toFixed(1);
            console.log(
              `| ${via} | ${connections} | ${requestClass.name} | ${answered} | ${Math.round(result.requests.average)} | ` +
                `${result.non2xx + result.errors} | ${counted} | ${per(counted)} | ${per(Math.max(0, counted - quietBackground))} |`,
            );
          }
        }
      } finally {
        await server.stop('SIGTERM', 10_000);
      }
    }
  } finally {
    await bouncer.stop();
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.end();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
