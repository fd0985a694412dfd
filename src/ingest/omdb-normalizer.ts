import type { EnrichmentRecord } from '../catalog/store/catalog-load';
import { IMDB_ID_PATTERN } from '../catalog/title';
import type { Parsed } from './imdb-normalizer';
import { cleanList, cleanText, parseWholeNumber } from './text';

const NOT_AVAILABLE = 'N/A';
const MAX_SEASONS = 10_000;

/** An OMDb string field: "N/A", empty, or not a string at all is null. */
function text(value: unknown): string | null {
  if (typeof value !== 'string' || value.trim() === NOT_AVAILABLE) return null;
  return cleanText(value);
}

function list(value: unknown): string[] | null {
  const raw = text(value);
  return raw === null ? null : cleanList(raw);
}

/** "142 min" → 142. */
function runtime(value: unknown): number | null {
  const match = /^(\d{1,6}) min$/.exec(text(value) ?? '');
  return match ? Number(match[1]) : null;
}

function posterUrl(value: unknown): string | null {
  const raw = text(value);
  return raw !== null && /^https?:\/\/\S+$/i.test(raw) ? raw : null;
}

/** One OMDb API title object → the fields enrichment may fill. Error responses are skipped. */
export function parseOmdbObject(object: Record<string, unknown>): Parsed<EnrichmentRecord> {
  if (object.Response === 'False') return { ok: false, reason: 'error response' };
  const imdbId = typeof object.imdbID === 'string' ? object.imdbID.trim() : '';
  if (imdbId === '') return { ok: false, reason: 'missing title id' };
  if (!IMDB_ID_PATTERN.test(imdbId)) return { ok: false, reason: 'invalid title id' };
  const seasons = text(object.totalSeasons);
  return {
    ok: true,
    value: {
      imdbId,
      runtimeMinutes: runtime(object.Runtime),
      genres: list(object.Genre),
      contentRating: text(object.Rated),
      plot: text(object.Plot),
      languages: list(object.Language),
      countries: list(object.Country),
      directors: list(object.Director),
      writers: list(object.Writer),
      actors: list(object.Actors),
      awards: text(object.Awards),
      posterUrl: posterUrl(object.Poster),
      boxOffice: text(object.BoxOffice),
      production: text(object.Production),
      totalSeasons: seasons === null ? null : (parseWholeNumber(seasons, 1, MAX_SEASONS) ?? null),
    },
  };
}
