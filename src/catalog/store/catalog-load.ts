import type { EnrichableField } from '../title-columns';
import type { TitleRecord } from '../title';

/** A title's rating from the ratings file, applied to a staged title with the same imdb_id. */
export type RatingRecord = Pick<TitleRecord, 'imdbId' | 'ratingAverage' | 'ratingVotes'>;

/** The fields an enrichment record can fill (OMDb-shaped input, already normalized). */
export type EnrichmentRecord = Pick<TitleRecord, 'imdbId' | EnrichableField>;

export type Records<T> = AsyncIterable<T> | Iterable<T>;

/**
 * What a load reads. Ratings and enrichment are joined in SQL so memory stays flat; where an id
 * repeats in them, the last one wins.
 */
export interface CatalogSource {
  titles: Records<TitleRecord>;
  ratings?: Records<RatingRecord>;
  enrichments?: Records<EnrichmentRecord>;
}

/** What a load does once its inputs are staged. */
export type LoadPhase = 'merge' | 'search-index' | 'statistics';

export interface CatalogLoadOptions {
  /** Reported by /health; derived from the content when absent. */
  catalogVersion?: string | null;
  /** Called as the load enters each phase after staging (the merge transaction starts with 'merge'). */
  onPhase?: (phase: LoadPhase) => void;
  /** Tokens in at least this many titles get pair lists (see DEFAULT_PAIR_MIN_TITLES). */
  pairMinTitles?: number;
}

export interface CatalogLoadResult {
  catalogVersion: string;
  titleCount: number;
  movieCount: number;
  seriesCount: number;
  enrichedCount: number;
  inserted: number;
  updated: number;
  removed: number;
  ingestedAt: Date;
}

/** Raised when a catalog cannot be loaded as given; the live catalog is untouched. */
export class CatalogLoadError extends Error {}
