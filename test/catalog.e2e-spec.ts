import { FIXTURE_TITLES, MOVIE_COUNT, SERIES_COUNT } from './support/catalog-fixture';
import { type TestApp, createTestApp } from './support/test-app';

const TITLE_FIELDS = [
  'id',
  'imdb_id',
  'type',
  'title',
  'original_title',
  'year',
  'end_year',
  'runtime_minutes',
  'genres',
  'content_rating',
  'plot',
  'languages',
  'countries',
  'directors',
  'writers',
  'actors',
  'awards',
  'poster_url',
  'box_office',
  'production',
  'total_seasons',
  'ratings',
];

describe('Catalog endpoints', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
    await t.writer.replaceCatalog({ titles: FIXTURE_TITLES });
  });
  afterAll(() => t.close());

  const imdbIds = (body: { data: { imdb_id: string }[] }) => body.data.map((title) => title.imdb_id);

  describe('GET /v1/titles/{imdb_id}', () => {
    it('returns exactly one Title with the 22 fields and a request-only meta', async () => {
      const res = await t
        .get('/v1/titles/tt0111161')
        .expect(200)
        .expect('Content-Type', /application\/json/);
      expect(res.body.data).toHaveLength(1);
      expect(Object.keys(res.body.meta)).toEqual(['request_id']);
      const title = res.body.data[0];
      expect(Object.keys(title).sort()).toEqual([...TITLE_FIELDS].sort());
      expect(title).toMatchObject({
        imdb_id: 'tt0111161',
        type: 'movie',
        title: 'The Shawshank Redemption',
        original_title: 'The Shawshank Redemption',
        year: 1994,
        end_year: null,
        runtime_minutes: 142,
        genres: ['Drama'],
        content_rating: 'R',
        writers: ['Stephen King', 'Frank Darabont'],
        box_office: '$28,767,189',
        ratings: { average: 9.3, votes: 3000 },
      });
      expect(Number.isInteger(title.id)).toBe(true);
    });

    it('gives total_seasons only to series types', async () => {
      expect((await t.get('/v1/titles/tt0111161')).body.data[0].total_seasons).toBeNull();
      expect((await t.get('/v1/titles/tt0903747')).body.data[0]).toMatchObject({
        total_seasons: 5,
        end_year: 2013,
      });
    });

    it('serializes empty lists as null and an unrated title as {0, 0}', async () => {
      expect((await t.get('/v1/titles/tt0211915')).body.data[0].genres).toBeNull();
      const unrated = (await t.get('/v1/titles/tt9000002')).body.data[0];
      expect(unrated.ratings).toEqual({ average: 0, votes: 0 });
      expect(unrated.original_title).toBeNull();
    });

    it.each(['tt12x', 'TT0111161', 'nm0000001', 'tt', 'tt０１', 'tt0111161%20'])(
      'refuses the identifier %s',
      async (id) => {
        const res = await t.get(`/v1/titles/${encodeURIComponent(id)}`).expect(400);
        expect(res.body.error.code).toBe('VALIDATION_ERROR');
        expect(res.body.error.message).toContain('^tt\\d+$');
      },
    );

    it('treats leading zeros as part of the identifier', async () => {
      const res = await t.get('/v1/titles/tt111161').expect(404);
      expect(res.body.error).toEqual({
        code: 'TITLE_NOT_FOUND',
        message: expect.any(String),
        request_id: res.headers['x-request-id'],
      });
    });

    it('answers concurrent lookups, known and unknown, each with its own title or 404', async () => {
      const known = FIXTURE_TITLES.map((title) => title.imdbId);
      const asked = known.flatMap((imdbId, index) => [imdbId, `tt9${String(index).padStart(8, '0')}`]);
      const answers = await Promise.all(asked.map((imdbId) => t.get(`/v1/titles/${imdbId}`)));
      answers.forEach((res, index) => {
        if (index % 2 === 0) {
          expect(res.status).toBe(200);
          expect(res.body.data[0].imdb_id).toBe(asked[index]);
        } else {
          expect(res.status).toBe(404);
          expect(res.body.error.code).toBe('TITLE_NOT_FOUND');
        }
      });
    });

    it('refuses any query parameter and malformed escapes in the path', async () => {
      expect((await t.get('/v1/titles/tt0111161?page=1').expect(400)).body.error.code).toBe(
        'VALIDATION_ERROR',
      );
      expect((await t.get('/v1/titles/tt%ZZ').expect(400)).body.error.code).toBe('VALIDATION_ERROR');
    });
  });

  describe('GET /v1/movies and /v1/series', () => {
    it('lists movie and tv_movie titles by votes, then id, with exact totals', async () => {
      const res = await t.get('/v1/movies').expect(200);
      expect(
        res.body.data.every((title: { type: string }) => ['movie', 'tv_movie'].includes(title.type)),
      ).toBe(true);
      expect(res.body.meta).toEqual({
        request_id: res.headers['x-request-id'],
        page: 1,
        per_page: 20,
        total_results: MOVIE_COUNT,
        total_pages: 1,
      });
      const votes = res.body.data.map((title: { ratings: { votes: number } }) => title.ratings.votes);
      expect(votes).toEqual([...votes].sort((a, b) => b - a));
      const twins = res.body.data.filter((title: { title: string }) => title.title === 'Twin Title');
      expect(twins[0].id).toBeLessThan(twins[1].id);
    });

    it('lists series types by votes', async () => {
      const res = await t.get('/v1/series').expect(200);
      expect(imdbIds(res.body)).toEqual(['tt0903747', 'tt0386676', 'tt7366338', 'tt0290978', 'tt0088178']);
      expect(res.body.meta.total_results).toBe(SERIES_COUNT);
    });

    it('pages with page and limit; a page past the end is empty with the true totals', async () => {
      const all = imdbIds((await t.get('/v1/movies')).body);
      const second = await t.get('/v1/movies?page=2&limit=3').expect(200);
      expect(imdbIds(second.body)).toEqual(all.slice(3, 6));
      expect(second.body.meta).toMatchObject({
        page: 2,
        per_page: 3,
        total_results: MOVIE_COUNT,
        total_pages: Math.ceil(MOVIE_COUNT / 3),
      });
      const past = await t.get('/v1/movies?page=1000000&limit=20').expect(200);
      expect(past.body.data).toEqual([]);
      expect(past.body.meta).toMatchObject({ page: 1000000, total_results: MOVIE_COUNT, total_pages: 1 });
    });

    it('accepts leading zeros and a plus sign (percent-encoded; a raw "+" is a space)', async () => {
      expect((await t.get('/v1/series?page=01&limit=%2B2').expect(200)).body.meta).toMatchObject({
        page: 1,
        per_page: 2,
      });
      await t.get('/v1/series?limit=+2').expect(400);
    });

    it.each([
      'page=0',
      'page=1000001',
      'limit=0',
      'limit=21',
      'page=abc',
      'page=1.5',
      'page=1.0',
      'page=1e3',
      'page=0x10',
      'page=',
      'page=%201',
      'limit=-1',
      'page=1&page=2',
      'cursor=abc',
      'sort=votes',
      'page=%E0%A4',
      'page',
    ])('refuses %s', async (query) => {
      const res = await t.get(`/v1/movies?${query}`).expect(400);
      expect(res.body.error).toEqual({
        code: 'VALIDATION_ERROR',
        message: expect.any(String),
        request_id: res.headers['x-request-id'],
      });
    });
  });

  describe('GET /v1/search', () => {
    const search = (query: string) => t.get(`/v1/search?${query}`);

    it('matches whole tokens after case and accent folding, across title and original title', async () => {
      expect(imdbIds((await search('q=AMELIE').expect(200)).body)).toEqual(['tt0211915']);
      expect(imdbIds((await search('q=amelie%20poulain')).body)).toEqual(['tt0211915']);
      expect(imdbIds((await search('q=strasse')).body)).toEqual(['tt9000002']);
      expect(imdbIds((await search('q=se7en')).body)).toEqual(['tt0114369']);
    });

    it('has no prefix matching, stemming or stop words', async () => {
      expect((await search('q=shaw')).body.meta.total_results).toBe(0);
      expect((await search('q=redemptions')).body.meta.total_results).toBe(0);
      expect(imdbIds((await search('q=up')).body)).toEqual(['tt1049413']);
      expect(imdbIds((await search('q=of%20the')).body)).toEqual(['tt0063350']);
    });

    it('orders by relevance (exact title first), then votes, then id', async () => {
      const res = await search('q=the').expect(200);
      expect(imdbIds(res.body)[0]).toBe('tt9000001');
      expect(res.body.meta.total_results).toBe(6);
      expect(imdbIds((await search('q=the%20office')).body)).toEqual(['tt0386676', 'tt0290978']);
      expect(imdbIds((await search('q=godfather')).body)).toEqual(['tt0068646']);
    });

    it('filters by exact type and year', async () => {
      expect(imdbIds((await search('q=the&type=tv_series')).body)).toEqual(['tt0386676', 'tt0290978']);
      expect(imdbIds((await search('q=office&year=2001')).body)).toEqual(['tt0290978']);
      expect((await search('q=office&type=movie')).body.meta).toMatchObject({
        total_results: 0,
        total_pages: 0,
      });
    });

    it('normalizes with NFKC and removes control characters', async () => {
      expect(imdbIds((await search('q=%EF%BC%B5%EF%BD%90')).body)).toEqual(['tt1049413']); // fullwidth "Ｕｐ"
      expect(imdbIds((await search('q=U%09p')).body)).toEqual(['tt1049413']); // "U\tp" becomes "Up"
    });

    it('uses only the first 20 tokens', async () => {
      const twenty = Array.from({ length: 20 }, () => 'up').join(' ');
      expect(imdbIds((await search(`q=${encodeURIComponent(`${twenty} nomatch`)}`)).body)).toEqual([
        'tt1049413',
      ]);
      expect((await search(`q=${encodeURIComponent(`nomatch ${twenty}`)}`)).body.meta.total_results).toBe(0);
    });

    it('pages search results with exact totals', async () => {
      const res = await search('q=the&limit=2&page=2').expect(200);
      expect(res.body.data).toHaveLength(2);
      expect(res.body.meta).toMatchObject({ page: 2, per_page: 2, total_results: 6, total_pages: 3 });
      expect((await search('q=the&page=4&limit=2')).body.data).toEqual([]);
    });

    it('accepts exactly 100 characters, counted as code points', async () => {
      await search(`q=${encodeURIComponent('a'.repeat(100))}`).expect(200);
      await search(`q=${encodeURIComponent('😀'.repeat(99) + 'a')}`).expect(200);
    });

    it.each([
      '',
      'q=',
      'q=%21%21%21',
      'q=%09',
      `q=${'a'.repeat(101)}`,
      'q=a&type=episode',
      'q=a&year=1799',
      'q=a&year=2101',
      'q=a&year=20x0',
      'q=a&q=b',
      'q=a&limit=50',
      'q=a&foo=1',
      'q=%FF',
      '__proto__=1&q=a',
      'q=a&constructor=1',
    ])('refuses %s', async (query) => {
      expect((await search(query).expect(400)).body.error.code).toBe('VALIDATION_ERROR');
    });
  });
});
