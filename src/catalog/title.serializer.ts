import { SERIES_TYPES, type Title } from './title';

/** A titles row as `TitleRepository` selects it: the Title's columns, with the rating flattened. */
export type TitleRow = Omit<Title, 'ratings'> & { rating_average: number; rating_votes: number };

/** Lists are null or non-empty, never []. */
function list(values: string[] | null): string[] | null {
  return values && values.length > 0 ? values : null;
}

/** The one place a Title resource is made: exactly the contract's 22 fields, in its order. */
export function serializeTitle(row: TitleRow): Title {
  return {
    id: Number(row.id),
    imdb_id: row.imdb_id,
    type: row.type,
    title: row.title,
    original_title: row.original_title,
    year: row.year,
    end_year: row.end_year,
    runtime_minutes: row.runtime_minutes,
    genres: list(row.genres),
    content_rating: row.content_rating,
    plot: row.plot,
    languages: list(row.languages),
    countries: list(row.countries),
    directors: list(row.directors),
    writers: list(row.writers),
    actors: list(row.actors),
    awards: row.awards,
    poster_url: row.poster_url,
    box_office: row.box_office,
    production: row.production,
    total_seasons: SERIES_TYPES.includes(row.type) ? row.total_seasons : null,
    ratings: { average: Number(row.rating_average), votes: Number(row.rating_votes) },
  };
}
