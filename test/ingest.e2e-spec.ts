import { writeFileSync } from 'node:fs';
import { CatalogLoadError } from '../src/catalog/store/catalog-load';
import { CatalogIngestService } from '../src/ingest/catalog-ingest.service';
import { IngestInputError } from '../src/ingest/ingest-errors';
import { FixtureFiles, basicsRow, omdbObject, ratingsRow } from './support/imdb-files';
import { type TestApp, createTestApp } from './support/test-app';

describe('catalog ingest', () => {
  let t: TestApp;
  let ingest: CatalogIngestService;
  const files = new FixtureFiles();

  beforeAll(async () => {
    t = await createTestApp();
    ingest = t.app.get(CatalogIngestService);
  });
  afterAll(async () => {
    await t.close();
    files.cleanup();
  });

  const title = async (imdbId: string) => (await t.get(`/v1/titles/${imdbId}`)).body.data?.[0];
  const health = async () => (await t.get('/health').expect(200)).body.data[0].catalog;

  const firstBasics = [
    basicsRow('tt0000001', 'movie', 'The First Film', { year: 1994, runtime: 142, genres: 'Drama' }),
    basicsRow('tt0000002', 'tvSeries', 'A Long Show', { year: 2008, end: 2013, genres: 'Crime,Drama' }),
    basicsRow('tt0000003', 'tvEpisode', 'An Episode', { year: 2009 }),
    basicsRow('tt0000004', 'tvMovie', 'Quiet "Night"', { original: 'Stille Nacht', year: 1990 }),
    basicsRow('tt0000005', 'short', 'A Short', { year: 1900 }),
    basicsRow('tt0000006', 'movie', 'Too Early', { year: 1750 }),
    basicsRow('tt0000007', 'tvMiniSeries', 'Mini', { year: 2019, adult: true }),
    basicsRow('tt0000008', 'tvSpecial', 'Special Night', { year: 1985 }),
  ];
  const firstRatings = [
    ratingsRow('tt0000001', '9.3', 3000),
    ratingsRow('tt0000002', '9.5', 2500),
    ratingsRow('tt0000003', '9.9', 10),
    ratingsRow('tt0000004', '6.0', 40),
    ratingsRow('tt9999999', '5.0', 1),
  ];
  const firstEnrichment = [
    omdbObject('tt0000001', {
      Runtime: '150 min',
      Genre: 'Thriller',
      Rated: 'R',
      Plot: 'A plot we wrote.',
      Director: 'A. Director',
      Writer: 'W. One, W. Two',
      Actors: ' Actor One ,Actor Two',
      Language: 'English, French',
      Country: 'United States',
      Awards: 'Won 1 award.',
      Poster: 'https://example.com/p.jpg',
      BoxOffice: '$1,000',
      Production: 'Studio',
      totalSeasons: '3',
    }),
    omdbObject('tt0000002', { Type: 'series', Runtime: '47 min', totalSeasons: '5', Genre: 'Western' }),
    { Response: 'False', Error: 'Error getting data.' },
    omdbObject('tt0000003', { Plot: 'Episodes are not in the catalog.' }),
  ];

  it('loads the kept types, joins ratings and applies enrichment by the precedence rules', async () => {
    const summary = await ingest.ingest(
      {
        basics: files.basics('basics-1.tsv.gz', firstBasics, { gzip: true }),
        ratings: files.ratings('ratings-1.tsv', firstRatings),
        enrichment: files.enrichment('omdb-1.ndjson', firstEnrichment),
      },
      { catalogVersion: 'v1' },
    );
    expect(summary).toMatchObject({
      catalogVersion: 'v1',
      titles: 5,
      enriched: 2,
      inserted: 5,
      updated: 0,
      removed: 0,
      byType: { movie: 1, tv_movie: 1, tv_series: 1, tv_mini_series: 1, tv_special: 1 },
      files: {
        basics: { rows: 8, skipped: { 'excluded title type': 2, 'invalid or out-of-range year': 1 } },
        ratings: { rows: 5, skipped: {} },
        enrichment: { rows: 4, skipped: { 'error response': 1, 'not in the catalog or repeated': 1 } },
      },
    });

    expect(await title('tt0000001')).toMatchObject({
      type: 'movie',
      title: 'The First Film',
      year: 1994,
      runtime_minutes: 142,
      genres: ['Drama'],
      content_rating: 'R',
      plot: 'A plot we wrote.',
      writers: ['W. One', 'W. Two'],
      actors: ['Actor One', 'Actor Two'],
      languages: ['English', 'French'],
      poster_url: 'https://example.com/p.jpg',
      box_office: '$1,000',
      production: 'Studio',
      awards: 'Won 1 award.',
      total_seasons: null,
      ratings: { average: 9.3, votes: 3000 },
    });
    expect(await title('tt0000002')).toMatchObject({
      type: 'tv_series',
      end_year: 2013,
      runtime_minutes: 47,
      genres: ['Crime', 'Drama'],
      total_seasons: 5,
    });
    expect(await title('tt0000004')).toMatchObject({
      type: 'tv_movie',
      title: 'Quiet "Night"',
      original_title: 'Stille Nacht',
      ratings: { average: 6, votes: 40 },
    });
    expect(await title('tt0000007')).toMatchObject({
      type: 'tv_mini_series',
      ratings: { average: 0, votes: 0 },
    });
    expect((await t.get('/v1/titles/tt0000003')).status).toBe(404);
    expect((await t.get('/v1/titles/tt0000006')).status).toBe(404);
    expect((await t.get('/v1/search?q=stille').expect(200)).body.data[0].imdb_id).toBe('tt0000004');
    expect(await health()).toMatchObject({
      catalog_version: 'v1',
      title_count: 5,
      enrichment_complete: false,
    });
  });

  it('re-ingests: ids stay with their imdb_id, removed titles go, changes show, counts follow', async () => {
    const before = await Promise.all(['tt0000001', 'tt0000002', 'tt0000004'].map(title));
    const removedIds = (await Promise.all(['tt0000007', 'tt0000008'].map(title))).map((item) => item.id);
    const summary = await ingest.ingest({
      basics: files.basics('basics-2.tsv', [
        // Before the others in the file, after them in imdb_id order: ids follow imdb_id order.
        basicsRow('tt10000000', 'movie', 'Eight Digits', { year: 2026 }),
        basicsRow('tt0000001', 'movie', 'The First Film', { year: 1994, runtime: 142, genres: 'Drama' }),
        basicsRow('tt0000002', 'tvSeries', 'A Longer Show', { year: 2008, end: 2014, genres: 'Crime,Drama' }),
        basicsRow('tt0000004', 'tvMovie', 'Quiet "Night"', { original: 'Stille Nacht', year: 1990 }),
        basicsRow('tt0000010', 'movie', 'Brand New', { year: 2026 }),
      ]),
      ratings: files.ratings('ratings-2.tsv', [
        ratingsRow('tt0000001', '9.3', 3001),
        ratingsRow('tt0000010', '7.0', 5),
      ]),
    });
    expect(summary).toMatchObject({ titles: 5, inserted: 2, updated: 3, removed: 2, enriched: 0 });
    expect(summary.catalogVersion).toMatch(/^sha256-/);

    const after = await Promise.all(['tt0000001', 'tt0000002', 'tt0000004'].map(title));
    expect(after.map((item) => item.id)).toEqual(before.map((item) => item.id));
    expect(after[0].ratings).toEqual({ average: 9.3, votes: 3001 });
    expect(after[0].plot).toBeNull();
    expect(after[1]).toMatchObject({ title: 'A Longer Show', end_year: 2014 });
    expect((await t.get('/v1/search?q=longer').expect(200)).body.meta.total_results).toBe(1);
    expect((await t.get('/v1/search?q=long').expect(200)).body.meta.total_results).toBe(0);
    for (const removed of ['tt0000007', 'tt0000008'])
      expect((await t.get(`/v1/titles/${removed}`)).status).toBe(404);
    // New ids come after every id ever given, removed titles' included, in imdb_id order.
    const added = await Promise.all(['tt0000010', 'tt10000000'].map(title));
    expect(added[0].id).toBeGreaterThan(Math.max(...before.map((item) => item.id), ...removedIds));
    expect(added[1].id).toBe(added[0].id + 1);
    expect(await health()).toMatchObject({ title_count: 5, catalog_version: summary.catalogVersion });
    expect((await t.get('/v1/series').expect(200)).body.meta.total_results).toBe(1);
    expect((await t.get('/v1/movies').expect(200)).body.meta.total_results).toBe(4);
  });

  it('reports enrichment_complete when every title has an enrichment record', async () => {
    await ingest.ingest({
      basics: files.basics('basics-3.tsv', [
        basicsRow('tt0000001', 'movie', 'The First Film', { year: 1994 }),
      ]),
      ratings: files.ratings('ratings-3.tsv', []),
      enrichment: files.enrichment('omdb-3.ndjson', [
        omdbObject('tt0000001'),
        omdbObject('tt0000001', { Rated: 'PG' }),
      ]),
    });
    expect(await health()).toMatchObject({ title_count: 1, enrichment_complete: true });
    expect((await title('tt0000001')).content_rating).toBe('PG');
  });

  describe('refusals leave the live catalog fully served', () => {
    let served: { catalog: unknown; movies: unknown };

    beforeAll(async () => {
      await ingest.ingest(
        {
          basics: files.basics('good.tsv', firstBasics),
          ratings: files.ratings('good-ratings.tsv', firstRatings),
        },
        { catalogVersion: 'good' },
      );
      served = { catalog: await health(), movies: (await t.get('/v1/movies')).body.data };
    });

    afterEach(async () => {
      expect(await health()).toEqual(served.catalog);
      expect((await t.get('/v1/movies')).body.data).toEqual(served.movies);
    });

    const good = () => ({
      basics: files.basics('ok.tsv', firstBasics),
      ratings: files.ratings('ok-r.tsv', firstRatings),
    });

    it('refuses a bad row late in the basics file, naming file and line', async () => {
      const path = files.basics('late-error.tsv', [...firstBasics, 'tt0000020\tmovie\tBroken row']);
      await expect(ingest.ingest({ ...good(), basics: path })).rejects.toThrow(
        `${path}:10: expected 9 tab-separated fields, found 3`,
      );
    });

    it('refuses a wrong header, a missing file and unreadable gzip', async () => {
      const wrongHeader = files.write('wrong-header.tsv', ['tconst\ttitle', 'tt1\tx']);
      await expect(ingest.ingest({ ...good(), ratings: wrongHeader })).rejects.toThrow(
        `${wrongHeader}:1: expected the header`,
      );
      await expect(ingest.ingest({ ...good(), basics: `${files.dir}/missing.tsv` })).rejects.toThrow(
        /missing\.tsv: cannot be opened \(ENOENT\)/,
      );
      const corrupt = files.write('corrupt.tsv.gz', []);
      writeFileSync(corrupt, Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x01, 0x02]));
      await expect(ingest.ingest({ ...good(), basics: corrupt })).rejects.toThrow(IngestInputError);
    });

    it('refuses a malformed enrichment line, naming file and line', async () => {
      const path = files.write('bad.ndjson', [JSON.stringify(omdbObject('tt0000001')), '{"imdbID": ']);
      await expect(ingest.ingest({ ...good(), enrichment: path })).rejects.toThrow(
        `${path}:2: malformed JSON`,
      );
    });

    it('refuses a duplicate title id', async () => {
      const path = files.basics('dup.tsv', [
        ...firstBasics,
        basicsRow('tt0000001', 'movie', 'Again', { year: 2000 }),
      ]);
      await expect(ingest.ingest({ ...good(), basics: path })).rejects.toThrow(CatalogLoadError);
    });
  });
});
