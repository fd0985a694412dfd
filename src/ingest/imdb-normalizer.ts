import type { RatingRecord } from '../catalog/store/catalog-load';
import { IMDB_ID_PATTERN, type TitleRecord, type TitleType } from '../catalog/title';
import { NOT_ENRICHED } from '../catalog/title-columns';
import { cleanList, cleanText, parseWholeNumber } from './text';

export const BASICS_COLUMNS = [
  'tconst',
  'titleType',
  'primaryTitle',
  'originalTitle',
  'isAdult',
  'startYear',
  'endYear',
  'runtimeMinutes',
  'genres',
] as const;
export const RATINGS_COLUMNS = ['tconst', 'averageRating', 'numVotes'] as const;

/** IMDb titleType → the contract's type; every other IMDb type is left out of the catalog. */
export const IMDB_TYPES: Readonly<Record<string, TitleType>> = {
  movie: 'movie',
  tvMovie: 'tv_movie',
  tvSeries: 'tv_series',
  tvMiniSeries: 'tv_mini_series',
  tvSpecial: 'tv_special',
};

const NULL = '\\N';
export const YEAR_RANGE = { min: 1800, max: 2100 } as const;
const MAX_RUNTIME_MINUTES = 100_000;
const MAX_VOTES = 2_000_000_000;

/** Why a row was left out; each is counted in the ingest summary. */
export type SkipReason =
  | 'excluded title type'
  | 'invalid title id'
  | 'missing title'
  | 'invalid or out-of-range year'
  | 'invalid rating'
  | 'error response'
  | 'missing title id';

export type Parsed<T> = { ok: true; value: T } | { ok: false; reason: SkipReason };

const skip = (reason: SkipReason) => ({ ok: false, reason }) as const;

function nullable(field: string): string | null {
  return field === NULL ? null : field;
}

/** A year: null for `\N`; undefined when present but not a year within 1800–2100. */
function parseYear(field: string): number | null | undefined {
  return field === NULL ? null : parseWholeNumber(field, YEAR_RANGE.min, YEAR_RANGE.max);
}

/**
 * One title.basics row. IMDb is authoritative for type, titles, years, runtime and genres; the
 * rating and the enrichment fields are filled later from their own files.
 */
export function parseBasicsRow(fields: readonly string[]): Parsed<TitleRecord> {
  const [tconst, titleType, primaryTitle, originalTitle, , startYear, endYear, runtimeMinutes, genres] =
    fields;
  // Own properties only: "constructor" or "__proto__" are not title types.
  if (!Object.hasOwn(IMDB_TYPES, titleType)) return skip('excluded title type');
  const type = IMDB_TYPES[titleType];
  if (!IMDB_ID_PATTERN.test(tconst)) return skip('invalid title id');
  const title = cleanText(nullable(primaryTitle) ?? '');
  if (title === null) return skip('missing title');
  const year = parseYear(startYear);
  const end = parseYear(endYear);
  if (year === undefined || end === undefined) return skip('invalid or out-of-range year');
  const runtime = nullable(runtimeMinutes);
  return {
    ok: true,
    value: {
      imdbId: tconst,
      type,
      title,
      originalTitle: cleanText(nullable(originalTitle) ?? ''),
      year,
      endYear: end,
      // An unreadable runtime is not worth dropping a title for: it is unknown, like `\N`.
      runtimeMinutes: runtime === null ? null : (parseWholeNumber(runtime, 0, MAX_RUNTIME_MINUTES) ?? null),
      genres: cleanList(nullable(genres) ?? ''),
      ...NOT_ENRICHED,
      ratingAverage: 0,
      ratingVotes: 0,
    },
  };
}

/** One title.ratings row: an average of 0–10 with at most one decimal and a whole vote count. */
export function parseRatingsRow(fields: readonly string[]): Parsed<RatingRecord> {
  const [tconst, averageRating, numVotes] = fields;
  if (!IMDB_ID_PATTERN.test(tconst)) return skip('invalid title id');
  const average = /^\d{1,2}(\.\d)?$/.test(averageRating) ? Number(averageRating) : NaN;
  const votes = parseWholeNumber(numVotes, 0, MAX_VOTES);
  if (!(average >= 0 && average <= 10) || votes === undefined) return skip('invalid rating');
  return { ok: true, value: { imdbId: tconst, ratingAverage: average, ratingVotes: votes } };
}
