import type { TitleRecord } from '../../src/catalog/title';
import { NOT_ENRICHED } from '../../src/catalog/title-columns';

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
    ...NOT_ENRICHED,
    ratingAverage: 0,
    ratingVotes: 0,
    ...overrides,
  };
}
