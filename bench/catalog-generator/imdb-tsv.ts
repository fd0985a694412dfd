/** The IMDb dataset TSV layout of title.basics and title.ratings. */
import type { TitleRow } from './title-row';

/** IMDb's marker for a missing value. */
const NULL = '\\N';

export const BASICS_HEADER =
  'tconst\ttitleType\tprimaryTitle\toriginalTitle\tisAdult\tstartYear\tendYear\truntimeMinutes\tgenres';
export const RATINGS_HEADER = 'tconst\taverageRating\tnumVotes';

export function basicsLine(t: TitleRow): string {
  return [
    t.id,
    t.type,
    t.title,
    t.original,
    t.isAdult ? '1' : '0',
    t.startYear === null ? NULL : String(t.startYear),
    t.endYear === null ? NULL : String(t.endYear),
    t.runtime === null ? NULL : String(t.runtime),
    t.genres === null ? NULL : t.genres.join(','),
  ].join('\t');
}

/** The title's ratings line, or null for a title without a rating (it has no row in title.ratings). */
export function ratingsLine(t: TitleRow): string | null {
  return t.rating === null ? null : `${t.id}\t${t.rating.toFixed(1)}\t${t.votes}`;
}
