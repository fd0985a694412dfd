import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliEnvironment, runCli } from './support/cli';
import { FixtureFiles, basicsRow, omdbObject, ratingsRow } from './support/imdb-files';
import { createTestApp } from './support/test-app';
import { TEST_ENGINE, type TestDatabase, createTestDatabase } from './support/test-database';
import { packageVersion } from '../src/cli/cli-version';

describe('catalog:ingest CLI', () => {
  let database: TestDatabase;
  let env: NodeJS.ProcessEnv;
  const files = new FixtureFiles();

  beforeAll(async () => {
    if (TEST_ENGINE === 'embedded') {
      const dataDir = mkdtempSync(join(tmpdir(), 'catalog-cli-'));
      database = {
        config: { kind: 'embedded', dataDir },
        drop: async () => rmSync(dataDir, { recursive: true, force: true }),
      };
    } else {
      database = await createTestDatabase();
    }
    env = cliEnvironment(database.config);
  });
  afterAll(async () => {
    await database.drop();
    files.cleanup();
  });

  const basics = () =>
    files.basics(
      'basics.tsv.gz',
      [
        basicsRow('tt0111161', 'movie', 'The Shawshank Redemption', {
          year: 1994,
          runtime: 142,
          genres: 'Drama',
        }),
        basicsRow('tt0903747', 'tvSeries', 'Breaking Bad', { year: 2008, end: 2013 }),
        basicsRow('tt0959621', 'tvEpisode', 'Pilot', { year: 2008 }),
      ],
      { gzip: true },
    );
  const ratings = () => files.ratings('ratings.tsv', [ratingsRow('tt0111161', '9.3', 3000000)]);

  it('loads a catalog and prints a one-line JSON summary', async () => {
    const result = await runCli(
      [
        'catalog:ingest',
        '--basics',
        basics(),
        '--ratings',
        ratings(),
        '--enrichment',
        files.enrichment('omdb.ndjson', [
          omdbObject('tt0903747', { totalSeasons: '5' }),
          // Not in the catalog (an episode, and an id the basics do not have): skipped, and counted.
          omdbObject('tt0959621'),
          omdbObject('tt9999999'),
        ]),
        '--catalog-version',
        '2026-11-21',
        '--json',
      ],
      env,
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const summary = JSON.parse(lines[0]);
    // The API's style, like keys:* --json: snake_case keys, skip reasons included.
    expect(Object.keys(summary)).toEqual([
      'catalog_version',
      'titles',
      'by_type',
      'enriched',
      'inserted',
      'updated',
      'removed',
      'files',
      'ingested_at',
      'duration_ms',
    ]);
    expect(summary).toMatchObject({
      catalog_version: '2026-11-21',
      titles: 2,
      enriched: 1,
      by_type: { movie: 1, tv_series: 1 },
      files: {
        basics: { rows: 3, skipped: { excluded_title_type: 1 } },
        enrichment: { rows: 3, skipped: { not_in_the_catalog_or_repeated: 2 } },
      },
    });

    const app = await createTestApp({}, database);
    try {
      const { catalog } = (await app.get('/health').expect(200)).body.data[0];
      expect(catalog).toMatchObject({
        catalog_version: '2026-11-21',
        title_count: 2,
        enrichment_complete: false,
      });
      expect((await app.get('/v1/titles/tt0903747').expect(200)).body.data[0].total_seasons).toBe(5);
    } finally {
      await app.close();
    }
  });

  it('prints its version with --version, without a database', async () => {
    const result = await runCli(['--version'], {
      ...env,
      DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
    });
    expect(result).toEqual({ code: 0, stdout: `${packageVersion()}\n`, stderr: '' });
  });

  it('prints a readable summary without --json', async () => {
    const result = await runCli(['catalog:ingest', '--basics', basics(), '--ratings', ratings()], env);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Loaded catalog sha256-[0-9a-f]{16}: 2 titles/);
    expect(result.stdout).toContain('skipped: excluded title type 1');
  });

  it.each([
    [
      () => ['--basics', files.write('bad.tsv', ['nope']), '--ratings', ratings()],
      'bad.tsv:1: expected the header',
    ],
    [
      () => ['--basics', basics(), '--ratings', join(files.dir, 'absent.tsv')],
      'absent.tsv: cannot be opened',
    ],
    [() => ['--ratings', ratings()], '--basics'],
  ])('refuses bad input with one line and exit code 1 (%#)', async (args, message) => {
    const result = await runCli(['catalog:ingest', ...args()], env);
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain(message);
  });
});
