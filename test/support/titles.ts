import type { TitleRecord } from '../../src/catalog/title';

/** A complete title record for seeding, with every optional field empty unless given. */
export function titleRecord(
  overrides: Partial<TitleRecord> & Pick<TitleRecord, 'imdbId' | 'title'>,
): TitleRecord {
  return {
    type: 'movie',
    originalTitle: overrides.title,
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
    ...overrides,
  };
}
