import type { Title, TitleRecord } from './title';
import {
  NOT_ENRICHED,
  STAGED_COLUMNS,
  TITLE_COLUMNS,
  TITLE_FIELD_READERS,
  columnsFilledBy,
  titleSelectSql,
} from './title-columns';
import type { EnrichmentRecord } from './store/catalog-load';

// Typed literals: the compiler makes them complete, these tests make the column list match them.
const RECORD: TitleRecord = {
  imdbId: 'tt1',
  type: 'movie',
  title: 'T',
  originalTitle: null,
  year: null,
  endYear: null,
  runtimeMinutes: null,
  genres: null,
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
};
const ENRICHMENT: EnrichmentRecord = {
  imdbId: 'tt1',
  runtimeMinutes: null,
  genres: null,
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
};
const TITLE: Title = {
  id: 1,
  imdb_id: 'tt1',
  type: 'movie',
  title: 'T',
  original_title: null,
  year: null,
  end_year: null,
  runtime_minutes: null,
  genres: null,
  content_rating: null,
  plot: null,
  languages: null,
  countries: null,
  directors: null,
  writers: null,
  actors: null,
  awards: null,
  poster_url: null,
  box_office: null,
  production: null,
  total_seasons: null,
  ratings: { average: 0, votes: 0 },
};

describe('TITLE_COLUMNS', () => {
  it('names each column once', () => {
    const names = TITLE_COLUMNS.map((c) => c.column);
    expect(new Set(names).size).toBe(names.length);
  });

  it('stages every TitleRecord property, in the order of the record', () => {
    expect(STAGED_COLUMNS.map((c) => c.record)).toEqual(Object.keys(RECORD));
  });

  it('serves the contract fields in the contract order, the rating nested under ratings', () => {
    const served = TITLE_FIELD_READERS.map(([field, nested]) => (nested ? `${field}.${nested}` : field));
    expect(served).toEqual([
      ...Object.keys(TITLE).filter((field) => field !== 'ratings'),
      'ratings.average',
      'ratings.votes',
    ]);
  });

  it('lets enrichment fill exactly the fields of an enrichment record', () => {
    expect(columnsFilledBy('enrichment').map((c) => c.record)).toEqual(
      Object.keys(ENRICHMENT).filter((key) => key !== 'imdbId'),
    );
    expect(columnsFilledBy('ratings').map((c) => c.column)).toEqual(['rating_average', 'rating_votes']);
  });

  it('gives an unenriched title null for every enrichment-only field', () => {
    expect(NOT_ENRICHED).toEqual({
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
      enriched: false,
    });
  });
});

describe('titleSelectSql', () => {
  it('selects each served column from the alias, the rating as float8, nothing unserved', () => {
    const sql = titleSelectSql('x');
    expect(sql.split(', ')).toEqual([
      'x.id',
      'x.imdb_id',
      'x.type',
      'x.title',
      'x.original_title',
      'x.year',
      'x.end_year',
      'x.runtime_minutes',
      'x.genres',
      'x.content_rating',
      'x.plot',
      'x.languages',
      'x.countries',
      'x.directors',
      'x.writers',
      'x.actors',
      'x.awards',
      'x.poster_url',
      'x.box_office',
      'x.production',
      'x.total_seasons',
      'x.rating_average::float8 AS rating_average',
      'x.rating_votes',
    ]);
  });
});
