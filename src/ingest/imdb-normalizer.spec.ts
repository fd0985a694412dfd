import type { TitleRecord } from '../catalog/title';
import { BASICS_COLUMNS, RATINGS_COLUMNS, parseBasicsRow, parseRatingsRow } from './imdb-normalizer';

type BasicsColumn = (typeof BASICS_COLUMNS)[number];

const SHAWSHANK: Record<BasicsColumn, string> = {
  tconst: 'tt0111161',
  titleType: 'movie',
  primaryTitle: 'The Shawshank Redemption',
  originalTitle: 'The Shawshank Redemption',
  isAdult: '0',
  startYear: '1994',
  endYear: '\\N',
  runtimeMinutes: '142',
  genres: 'Drama',
};

/** A title.basics row in file order, from the Shawshank row with some columns changed. */
const basicsRow = (changes: Partial<Record<BasicsColumn, string>> = {}): string[] => {
  const row = { ...SHAWSHANK, ...changes };
  return BASICS_COLUMNS.map((column) => row[column]);
};

const keptTitle = (changes: Partial<Record<BasicsColumn, string>> = {}): TitleRecord => {
  const parsed = parseBasicsRow(basicsRow(changes));
  if (!parsed.ok) throw new Error(`expected the row to be kept, it was skipped: ${parsed.reason}`);
  return parsed.value;
};

const skipReason = (changes: Partial<Record<BasicsColumn, string>>): string => {
  const parsed = parseBasicsRow(basicsRow(changes));
  return parsed.ok ? 'kept' : parsed.reason;
};

describe('BASICS_COLUMNS and RATINGS_COLUMNS', () => {
  it('name the IMDb dataset headers exactly, in order', () => {
    expect(BASICS_COLUMNS.join('\t')).toBe(
      'tconst\ttitleType\tprimaryTitle\toriginalTitle\tisAdult\tstartYear\tendYear\truntimeMinutes\tgenres',
    );
    expect(RATINGS_COLUMNS.join('\t')).toBe('tconst\taverageRating\tnumVotes');
  });
});

describe('parseBasicsRow', () => {
  it('maps a movie row to a title record with every enrichment field empty', () => {
    expect(parseBasicsRow(basicsRow())).toEqual({
      ok: true,
      value: {
        imdbId: 'tt0111161',
        type: 'movie',
        title: 'The Shawshank Redemption',
        originalTitle: 'The Shawshank Redemption',
        year: 1994,
        endYear: null,
        runtimeMinutes: 142,
        genres: ['Drama'],
        contentRating: null,
        plot: null,
        languages: null,
        countries: null,
        directors: null,
        writers: null,
        actors: null,
        awards: null,
        posterUrl: null,
        boxOffice: null,
        production: null,
        totalSeasons: null,
        ratingAverage: 0,
        ratingVotes: 0,
        enriched: false,
      },
    });
  });

  it.each([
    ['movie', 'movie'],
    ['tvMovie', 'tv_movie'],
    ['tvSeries', 'tv_series'],
    ['tvMiniSeries', 'tv_mini_series'],
    ['tvSpecial', 'tv_special'],
  ])('keeps titleType %s as type %s', (titleType, type) => {
    expect(keptTitle({ titleType }).type).toBe(type);
  });

  it.each([
    'tvEpisode',
    'short',
    'video',
    'videoGame',
    'tvShort',
    'tvPilot',
    'Movie',
    'MOVIE',
    ' movie',
    'movie ',
    'tv_movie',
    'tv_series',
    '',
    '\\N',
    'garbage',
    '🎬',
    'constructor',
    '__proto__',
    'toString',
    'hasOwnProperty',
  ])('leaves out titleType %j as an excluded title type', (titleType) => {
    expect(skipReason({ titleType })).toBe('excluded title type');
  });

  it('maps startYear to year and endYear to endYear', () => {
    const series = keptTitle({
      tconst: 'tt0903747',
      titleType: 'tvSeries',
      primaryTitle: 'Breaking Bad',
      originalTitle: 'Breaking Bad',
      startYear: '2008',
      endYear: '2013',
      runtimeMinutes: '45',
      genres: 'Crime,Drama,Thriller',
    });
    expect(series).toMatchObject({
      imdbId: 'tt0903747',
      type: 'tv_series',
      year: 2008,
      endYear: 2013,
      runtimeMinutes: 45,
      genres: ['Crime', 'Drama', 'Thriller'],
    });
  });

  it('reads \\N as null for the original title, years, runtime and genres', () => {
    const title = keptTitle({
      originalTitle: '\\N',
      startYear: '\\N',
      endYear: '\\N',
      runtimeMinutes: '\\N',
      genres: '\\N',
    });
    expect(title).toMatchObject({
      title: 'The Shawshank Redemption',
      originalTitle: null,
      year: null,
      endYear: null,
      runtimeMinutes: null,
      genres: null,
    });
  });

  it('keeps adult titles like any other', () => {
    expect(parseBasicsRow(basicsRow({ isAdult: '1' }))).toEqual(parseBasicsRow(basicsRow({ isAdult: '0' })));
    expect(keptTitle({ isAdult: '1', titleType: 'tvSeries' }).type).toBe('tv_series');
  });

  it('keeps the original title even when it equals the title', () => {
    expect(keptTitle({ primaryTitle: 'Heat', originalTitle: 'Heat' })).toMatchObject({
      title: 'Heat',
      originalTitle: 'Heat',
    });
    expect(
      keptTitle({ primaryTitle: 'Spirited Away', originalTitle: 'Sen to Chihiro no kamikakushi' }),
    ).toMatchObject({ title: 'Spirited Away', originalTitle: 'Sen to Chihiro no kamikakushi' });
  });

  it('gives a blank original title as null', () => {
    expect(keptTitle({ originalTitle: '' }).originalTitle).toBeNull();
    expect(keptTitle({ originalTitle: '   ' }).originalTitle).toBeNull();
  });

  it('keeps a " in a title as an ordinary character', () => {
    expect(keptTitle({ primaryTitle: '"Weird" Al Yankovic', originalTitle: 'He said "hi' })).toMatchObject({
      title: '"Weird" Al Yankovic',
      originalTitle: 'He said "hi',
    });
    expect(keptTitle({ primaryTitle: '"' }).title).toBe('"');
  });

  it('trims titles and removes control characters from them', () => {
    expect(keptTitle({ primaryTitle: '  Heat ', originalTitle: ' Heat  ' })).toMatchObject({
      title: 'Heat',
      originalTitle: 'Heat',
    });
    expect(keptTitle({ primaryTitle: 'He\u0000at\u001f' }).title).toBe('Heat');
  });

  it.each(['\\N', '', '   ', '\u0000', ' \u001f '])(
    'skips primaryTitle %j as a missing title',
    (primaryTitle) => {
      expect(skipReason({ primaryTitle })).toBe('missing title');
    },
  );

  it('keeps the leading zeros of the title id', () => {
    expect(keptTitle({ tconst: 'tt0000001' }).imdbId).toBe('tt0000001');
    expect(keptTitle({ tconst: 'tt10872600' }).imdbId).toBe('tt10872600');
  });

  it.each([
    '',
    '\\N',
    'tt',
    '0111161',
    'nm0000001',
    'TT0111161',
    'tt01a1161',
    'tt-111161',
    ' tt0111161',
    'tt0111161 ',
    'tt0111161\n',
    'tt１２３',
  ])('skips tconst %j as an invalid title id', (tconst) => {
    expect(skipReason({ tconst })).toBe('invalid title id');
  });

  it('accepts years from 1800 to 2100', () => {
    expect(keptTitle({ startYear: '1800', endYear: '2100' })).toMatchObject({ year: 1800, endYear: 2100 });
    expect(keptTitle({ startYear: '2100' }).year).toBe(2100);
    expect(keptTitle({ startYear: '\\N', endYear: '1800' })).toMatchObject({ year: null, endYear: 1800 });
  });

  it.each(['1799', '2101', '0', '-1994', '1994.0', '199x', '', ' 1994', '1994 ', 'abc', '１９９４', '99999'])(
    'skips startYear or endYear %j as an invalid or out-of-range year',
    (value) => {
      expect(skipReason({ startYear: value })).toBe('invalid or out-of-range year');
      expect(skipReason({ endYear: value })).toBe('invalid or out-of-range year');
    },
  );

  it.each(['abc', '-5', '90.5', '', ' 90', '90 ', '1e2', '90 min', '99999999999'])(
    'keeps the title with a null runtime for runtimeMinutes %j',
    (runtimeMinutes) => {
      expect(keptTitle({ runtimeMinutes })).toMatchObject({ imdbId: 'tt0111161', runtimeMinutes: null });
    },
  );

  it('splits genres on commas, trimmed and without repeats', () => {
    expect(keptTitle({ genres: 'Crime,Drama' }).genres).toEqual(['Crime', 'Drama']);
    expect(keptTitle({ genres: ' Crime , Drama ' }).genres).toEqual(['Crime', 'Drama']);
    expect(keptTitle({ genres: 'Drama,Crime,Drama' }).genres).toEqual(['Drama', 'Crime']);
    expect(keptTitle({ genres: 'Drama,,Crime,' }).genres).toEqual(['Drama', 'Crime']);
  });

  it('gives genres with no items as null, never an empty list', () => {
    expect(keptTitle({ genres: '' }).genres).toBeNull();
    expect(keptTitle({ genres: ' , ' }).genres).toBeNull();
  });

  it('starts every title unrated and not enriched', () => {
    expect(keptTitle({ titleType: 'tvMiniSeries' })).toMatchObject({
      ratingAverage: 0,
      ratingVotes: 0,
      enriched: false,
    });
  });
});

describe('parseRatingsRow', () => {
  it.each([
    ['9.3', '2900000', 9.3, 2_900_000],
    ['6.0', '12', 6, 12],
    ['10.0', '1', 10, 1],
    ['0.0', '0', 0, 0],
    ['10', '5', 10, 5],
    ['7', '0', 7, 0],
  ])('reads average %s with %s votes', (averageRating, numVotes, average, votes) => {
    expect(parseRatingsRow(['tt0111161', averageRating, numVotes])).toEqual({
      ok: true,
      value: { imdbId: 'tt0111161', ratingAverage: average, ratingVotes: votes },
    });
  });

  it.each([
    '10.5',
    '10.1',
    '11',
    '100',
    '-1',
    '-0.5',
    'abc',
    '7.25',
    '',
    '\\N',
    ' 7.5',
    '7.5 ',
    '7,5',
    '.5',
    '5.',
    '1e1',
    'NaN',
    'Infinity',
  ])('skips averageRating %j as an invalid rating', (averageRating) => {
    expect(parseRatingsRow(['tt0111161', averageRating, '100'])).toEqual({
      ok: false,
      reason: 'invalid rating',
    });
  });

  it.each(['-1', '1.5', '', '\\N', 'abc', ' 5', '5 ', '1e3', '1,000', '99999999999'])(
    'skips numVotes %j as an invalid rating',
    (numVotes) => {
      expect(parseRatingsRow(['tt0111161', '9.3', numVotes])).toEqual({
        ok: false,
        reason: 'invalid rating',
      });
    },
  );

  it.each(['', 'tt', 'nm0000001', 'TT0111161', ' tt0111161', 'tt0111161x', '\\N'])(
    'skips tconst %j as an invalid title id',
    (tconst) => {
      expect(parseRatingsRow([tconst, '9.3', '100'])).toEqual({ ok: false, reason: 'invalid title id' });
    },
  );
});
