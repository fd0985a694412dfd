/**
 * Does search hurt everything else, and do list pages cost the same at any depth? Measures and
 * options: bench/README.md ("Search benchmarks").
 *
 *   npx ts-node --transpile-only bench/search-interference.ts --url http://127.0.0.1:4101 --key mov_live_… \
 *     --database-url postgres://postgres@127.0.0.1:5432/search_big [--seconds 10] [--rounds 3]
 */
import autocannon from 'autocannon';
import { parseArgs } from 'node:util';
import { Client } from 'pg';
import { sampleTitleIds } from './catalog-sample';
import { median } from './median';

const { values } = parseArgs({
  options: {
    url: { type: 'string', default: 'http://127.0.0.1:4101' },
    key: { type: 'string' },
    'database-url': { type: 'string' },
    seconds: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '3' },
  },
});
const base = new URL(values.url!);
if (!['127.0.0.1', 'localhost', '[::1]'].includes(base.hostname)) throw new Error('loopback targets only');
const seconds = Number(values.seconds);
const headers = { Authorization: `Bearer ${values.key}` };

const COMMON = ['the', 'of', 'love', 'man', 'night'];
const MIX = [
  'q=beikys',
  'q=school',
  'q=river',
  'q=the',
  'q=of',
  'q=love',
  'q=the+man',
  'q=of+the',
  'q=the&type=movie',
  'q=love&year=2015',
  'q=the&page=2000',
  'q=man&page=1500',
  'q=up',
  'q=9',
  'q=it',
  'q=a',
  'q=night+of+the',
  'q=school+of',
  'q=the+army',
];

function pick<T>(items: readonly T[]): T {
  return items[Math.floor(Math.random() * items.length)];
}

function run(connections: number, nextPath: () => string): Promise<autocannon.Result> {
  return autocannon({
    url: base.origin,
    connections,
    duration: seconds,
    headers,
    requests: [{ method: 'GET', setupRequest: (request) => ({ ...request, path: nextPath() }) }],
  });
}

function summary(result: autocannon.Result) {
  return {
    rps: Math.round(result.requests.average),
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

async function main(): Promise<void> {
  const db = new Client({ connectionString: values['database-url'] });
  await db.connect();
  const ids = await sampleTitleIds(db);
  const [{ movies }] = (await db.query<{ movies: number }>('SELECT movie_count AS movies FROM catalog_state'))
    .rows;
  await db.end();
  const lastPage = Math.ceil(movies / 20);
  const lookup = () => `/v1/titles/${pick(ids)}`;

  const ratios: number[] = [];
  for (let round = 0; round < Number(values.rounds); round++) {
    const alone = summary(await run(4, lookup));
    console.log(JSON.stringify({ round, run: 'lookups alone (4 clients)', ...alone }));
    const [withSearch, searches] = await Promise.all([
      run(4, lookup),
      run(4, () => `/v1/search?q=${pick(COMMON)}&page=${1 + Math.floor(Math.random() * 50)}`),
    ]);
    const lookups = summary(withSearch);
    console.log(JSON.stringify({ round, run: 'lookups while 4 clients search common words', ...lookups }));
    console.log(JSON.stringify({ round, run: 'the 4 searching clients', ...summary(searches) }));
    ratios.push(Math.round((lookups.rps / alone.rps) * 100) / 100);
    console.log(JSON.stringify({ round, ratio_lookups: ratios[round] }));
  }
  console.log(JSON.stringify({ ratio_lookups_median: median(ratios), ratios }));

  console.log(
    JSON.stringify({
      run: 'search mix, 8 clients',
      ...summary(await run(8, () => `/v1/search?${pick(MIX)}`)),
    }),
  );

  // Page 1 and random pages alternate, round by round, like the lookups above: one back-to-back
  // pair moved from 0.61 to 0.82 between two runs a minute apart on a noisy machine.
  const pageRatios: number[] = [];
  for (let round = 0; round < Number(values.rounds); round++) {
    const first = summary(await run(4, () => '/v1/movies?page=1'));
    console.log(JSON.stringify({ round, run: '/v1/movies page 1 (4 clients)', ...first }));
    const random = summary(await run(4, () => `/v1/movies?page=${1 + Math.floor(Math.random() * lastPage)}`));
    console.log(
      JSON.stringify({ round, run: `/v1/movies random pages 1..${lastPage} (4 clients)`, ...random }),
    );
    pageRatios.push(Math.round((random.rps / first.rps) * 100) / 100);
  }
  console.log(JSON.stringify({ ratio_random_pages_median: median(pageRatios), ratios: pageRatios }));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
