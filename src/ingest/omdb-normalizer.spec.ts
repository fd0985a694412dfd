import type { EnrichmentRecord } from '../catalog/store/catalog-load';
import { parseOmdbObject } from './omdb-normalizer';

const DARK_KNIGHT_POSTER =
  'https://m.media-amazon.com/images/M/MV5BMTMxNTMwODM0NF5BMl5BanBnXkFtZTcwODAyMTk2Mw@@._V1_SX300.jpg';

/** An OMDb API movie object as the API returns it. */
const DARK_KNIGHT: Record<string, unknown> = {
  Title: 'The Dark Knight',
  Year: '2008',
  Rated: 'PG-13',
  Released: '18 Jul 2008',
  Runtime: '152 min',
  Genre: 'Action, Crime, Drama',
  Director: 'Christopher Nolan',
  Writer: 'Jonathan Nolan, Christopher Nolan, David S. Goyer',
  Actors: 'Christian Bale, Heath Ledger, Aaron Eckhart',
  Plot: 'When the menace known as the Joker wreaks havoc and chaos on the people of Gotham, Batman must act.',
  Language: 'English, Mandarin',
  Country: 'United States, United Kingdom',
  Awards: 'Won 2 Oscars. 164 wins & 164 nominations total',
  Poster: DARK_KNIGHT_POSTER,
  Ratings: [
    { Source: 'Internet Movie Database', Value: '9.0/10' },
    { Source: 'Rotten Tomatoes', Value: '94%' },
  ],
  Metascore: '84',
  imdbRating: '9.0',
  imdbVotes: '2,900,000',
  imdbID: 'tt0468569',
  Type: 'movie',
  DVD: '09 Dec 2008',
  BoxOffice: '$534,987,076',
  Production: 'Warner Bros. Pictures',
  Website: 'N/A',
  Response: 'True',
};

/** An OMDb API series object: no box office or production, a year range and a season count. */
const BREAKING_BAD: Record<string, unknown> = {
  Title: 'Breaking Bad',
  Year: '2008–2013',
  Rated: 'TV-MA',
  Released: '20 Jan 2008',
  Runtime: '49 min',
  Genre: 'Crime, Drama, Thriller',
  Director: 'N/A',
  Writer: 'Vince Gilligan',
  Actors: 'Bryan Cranston, Aaron Paul, Anna Gunn',
  Plot: 'A chemistry teacher diagnosed with inoperable lung cancer turns to manufacturing methamphetamine.',
  Language: 'English, Spanish',
  Country: 'United States',
  Awards: 'Won 16 Primetime Emmys. 165 wins & 269 nominations total',
  Poster: 'N/A',
  Ratings: [{ Source: 'Internet Movie Database', Value: '9.5/10' }],
  Metascore: 'N/A',
  imdbRating: '9.5',
  imdbVotes: '2,100,000',
  imdbID: 'tt0903747',
  Type: 'series',
  totalSeasons: '5',
  Response: 'True',
};

const ENRICHMENT_FIELDS = [
  'imdbId',
  'runtimeMinutes',
  'genres',
  'contentRating',
  'plot',
  'languages',
  'countries',
  'directors',
  'writers',
  'actors',
  'awards',
  'posterUrl',
  'boxOffice',
  'production',
  'totalSeasons',
];

const enrichment = (object: Record<string, unknown>): EnrichmentRecord => {
  const parsed = parseOmdbObject(object);
  if (!parsed.ok) throw new Error(`expected the object to be kept, it was skipped: ${parsed.reason}`);
  return parsed.value;
};

/** The record of an object that says nothing about the title beyond its id. */
const nothingKnown = (imdbId: string): EnrichmentRecord =>
  Object.fromEntries(
    ENRICHMENT_FIELDS.map((field) => [field, field === 'imdbId' ? imdbId : null]),
  ) as EnrichmentRecord;

/** The Dark Knight with some fields changed. */
const movie = (changes: Record<string, unknown>): EnrichmentRecord =>
  enrichment({ ...DARK_KNIGHT, ...changes });

describe('parseOmdbObject', () => {
  it('maps a movie object to an enrichment record', () => {
    expect(parseOmdbObject(DARK_KNIGHT)).toEqual({
      ok: true,
      value: {
        imdbId: 'tt0468569',
        runtimeMinutes: 152,
        genres: ['Action', 'Crime', 'Drama'],
        contentRating: 'PG-13',
        plot: 'When the menace known as the Joker wreaks havoc and chaos on the people of Gotham, Batman must act.',
        languages: ['English', 'Mandarin'],
        countries: ['United States', 'United Kingdom'],
        directors: ['Christopher Nolan'],
        writers: ['Jonathan Nolan', 'Christopher Nolan', 'David S. Goyer'],
        actors: ['Christian Bale', 'Heath Ledger', 'Aaron Eckhart'],
        awards: 'Won 2 Oscars. 164 wins & 164 nominations total',
        posterUrl: DARK_KNIGHT_POSTER,
        boxOffice: '$534,987,076',
        production: 'Warner Bros. Pictures',
        totalSeasons: null,
      },
    });
  });

  it('maps a series object, with its season count and missing fields as null', () => {
    expect(parseOmdbObject(BREAKING_BAD)).toEqual({
      ok: true,
      value: {
        imdbId: 'tt0903747',
        runtimeMinutes: 49,
        genres: ['Crime', 'Drama', 'Thriller'],
        contentRating: 'TV-MA',
        plot: 'A chemistry teacher diagnosed with inoperable lung cancer turns to manufacturing methamphetamine.',
        languages: ['English', 'Spanish'],
        countries: ['United States'],
        directors: null,
        writers: ['Vince Gilligan'],
        actors: ['Bryan Cranston', 'Aaron Paul', 'Anna Gunn'],
        awards: 'Won 16 Primetime Emmys. 165 wins & 269 nominations total',
        posterUrl: null,
        boxOffice: null,
        production: null,
        totalSeasons: 5,
      },
    });
  });

  it('gives exactly the enrichment fields, whatever else the object carries', () => {
    expect(Object.keys(enrichment(DARK_KNIGHT)).sort()).toEqual([...ENRICHMENT_FIELDS].sort());
    expect(Object.keys(enrichment(BREAKING_BAD)).sort()).toEqual([...ENRICHMENT_FIELDS].sort());
    expect(Object.keys(enrichment({ imdbID: 'tt0468569' })).sort()).toEqual([...ENRICHMENT_FIELDS].sort());
  });

  it('skips an error response', () => {
    expect(parseOmdbObject({ Response: 'False', Error: 'Incorrect IMDb ID.' })).toEqual({
      ok: false,
      reason: 'error response',
    });
    expect(parseOmdbObject({ ...DARK_KNIGHT, Response: 'False', Error: 'Movie not found!' })).toEqual({
      ok: false,
      reason: 'error response',
    });
  });

  it('reads an object without a Response field', () => {
    const withoutResponse = { ...DARK_KNIGHT };
    delete withoutResponse.Response;
    expect(enrichment(withoutResponse)).toEqual(enrichment(DARK_KNIGHT));
  });

  it.each([
    ['absent', undefined],
    ['empty', ''],
    ['blank', '   '],
    ['a number', 468569],
    ['null', null],
    ['an array', ['tt0468569']],
  ])('skips an object whose imdbID is %s as a missing title id', (_label, imdbID) => {
    expect(parseOmdbObject({ ...DARK_KNIGHT, imdbID })).toEqual({ ok: false, reason: 'missing title id' });
  });

  it.each(['tt', 'nm0000001', 'TT0468569', 'tt0468569x', 'tt04 68569', '0468569', 'tt１２３'])(
    'skips imdbID %j as an invalid title id',
    (imdbID) => {
      expect(parseOmdbObject({ ...DARK_KNIGHT, imdbID })).toEqual({ ok: false, reason: 'invalid title id' });
    },
  );

  it('trims the title id', () => {
    expect(movie({ imdbID: '  tt0468569 ' }).imdbId).toBe('tt0468569');
  });

  it('reads "N/A" in every field as null', () => {
    const allNotAvailable = Object.fromEntries(Object.keys(BREAKING_BAD).map((key) => [key, 'N/A']));
    expect(enrichment({ ...allNotAvailable, imdbID: 'tt0903747', Response: 'True' })).toEqual(
      nothingKnown('tt0903747'),
    );
    expect(movie({ Rated: ' N/A ', Genre: ' N/A' })).toMatchObject({ contentRating: null, genres: null });
  });

  it('gives null for the fields an object leaves out', () => {
    expect(enrichment({ imdbID: 'tt0468569' })).toEqual(nothingKnown('tt0468569'));
  });

  it('splits the list fields on commas, trimmed and without repeats', () => {
    expect(
      movie({
        Genre: 'Action,Crime ,  Drama',
        Director: ' Lana Wachowski , Lilly Wachowski ',
        Writer: 'Christopher Nolan, Christopher Nolan, David S. Goyer',
        Actors: 'Christian Bale,,Heath Ledger,',
        Language: 'English',
        Country: ' United States ',
      }),
    ).toMatchObject({
      genres: ['Action', 'Crime', 'Drama'],
      directors: ['Lana Wachowski', 'Lilly Wachowski'],
      writers: ['Christopher Nolan', 'David S. Goyer'],
      actors: ['Christian Bale', 'Heath Ledger'],
      languages: ['English'],
      countries: ['United States'],
    });
  });

  it('gives lists with no items as null, never an empty list', () => {
    expect(
      movie({ Genre: '', Director: ' , ', Writer: ',', Actors: '   ', Language: '\u0000', Country: '' }),
    ).toMatchObject({
      genres: null,
      directors: null,
      writers: null,
      actors: null,
      languages: null,
      countries: null,
    });
  });

  it('trims text fields and gives blank ones as null', () => {
    expect(
      movie({
        Rated: '  PG-13 ',
        Plot: '\n A plot. \n',
        Awards: ' ',
        BoxOffice: '',
        Production: '  Legendary ',
      }),
    ).toMatchObject({
      contentRating: 'PG-13',
      plot: 'A plot.',
      awards: null,
      boxOffice: null,
      production: 'Legendary',
    });
  });

  it('reads a runtime of "<minutes> min"', () => {
    expect(movie({ Runtime: '142 min' }).runtimeMinutes).toBe(142);
    expect(movie({ Runtime: '5 min' }).runtimeMinutes).toBe(5);
    expect(movie({ Runtime: ' 142 min ' }).runtimeMinutes).toBe(142);
  });

  it.each(['N/A', '1 h 30 min', 'abc', '142', '142min', '142 mins', '142 Min', '-5 min', '1.5 min', '', 142])(
    'gives Runtime %j as null',
    (Runtime) => {
      expect(movie({ Runtime }).runtimeMinutes).toBeNull();
    },
  );

  it('keeps http and https poster URLs', () => {
    expect(movie({ Poster: DARK_KNIGHT_POSTER }).posterUrl).toBe(DARK_KNIGHT_POSTER);
    expect(movie({ Poster: 'http://img.omdbapi.com/poster.jpg' }).posterUrl).toBe(
      'http://img.omdbapi.com/poster.jpg',
    );
    expect(movie({ Poster: ` ${DARK_KNIGHT_POSTER} ` }).posterUrl).toBe(DARK_KNIGHT_POSTER);
  });

  it.each([
    'N/A',
    '',
    'ftp://example.com/poster.jpg',
    '/images/poster.jpg',
    'm.media-amazon.com/images/poster.jpg',
    'javascript:alert(1)',
    'data:image/png;base64,iVBORw0KGgo=',
    'https://',
    'https://example.com/a poster.jpg',
    42,
  ])('gives Poster %j as null', (Poster) => {
    expect(movie({ Poster }).posterUrl).toBeNull();
  });

  it('reads totalSeasons as a whole number of at least 1', () => {
    expect(enrichment({ ...BREAKING_BAD, totalSeasons: '1' }).totalSeasons).toBe(1);
    expect(enrichment({ ...BREAKING_BAD, totalSeasons: ' 12 ' }).totalSeasons).toBe(12);
  });

  it.each(['0', 'N/A', 'x', '-1', '1.5', '', '5 seasons', 5, null])(
    'gives totalSeasons %j as null',
    (totalSeasons) => {
      expect(enrichment({ ...BREAKING_BAD, totalSeasons }).totalSeasons).toBeNull();
    },
  );

  it('treats values that are not strings as null', () => {
    expect(
      movie({
        Rated: 13,
        Genre: ['Action', 'Drama'],
        Director: { name: 'Christopher Nolan' },
        Writer: null,
        Actors: true,
        Plot: 42,
        Language: ['English'],
        Country: 1,
        Awards: false,
        Poster: ['https://example.com/poster.jpg'],
        BoxOffice: 534987076,
        Production: {},
        Runtime: ['152 min'],
      }),
    ).toEqual(nothingKnown('tt0468569'));
  });

  it('removes control characters from text and list items', () => {
    expect(
      movie({
        Plot: 'A man\u0000 walks\u0007 in.\u001f',
        Awards: '\u0085Won 2 Oscars.\u007f',
        Actors: 'Christian\u001f Bale, Heath\nLedger',
        Rated: 'PG\u0000-13',
      }),
    ).toMatchObject({
      plot: 'A man walks in.',
      awards: 'Won 2 Oscars.',
      actors: ['Christian Bale', 'Heath Ledger'],
      contentRating: 'PG-13',
    });
  });
});
