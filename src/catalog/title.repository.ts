import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';
import { type SearchQuery, toTsQuery } from './search/search-text';
import { MOVIE_TYPES, SERIES_TYPES, type TitleType } from './title';
import type { TitleRow } from './title.serializer';

const TITLE_COLUMNS = `
  id, imdb_id, type, title, original_title, year, end_year, runtime_minutes, genres, content_rating,
  plot, languages, countries, directors, writers, actors, awards, poster_url, box_office, production,
  total_seasons, rating_average::float8 AS rating_average, rating_votes`;

/** Literal type lists, so the WHERE clause matches the partial indexes' predicates exactly. */
const TYPE_FAMILY_SQL = {
  movies: MOVIE_TYPES.map((type) => `'${type}'`).join(', '),
  series: SERIES_TYPES.map((type) => `'${type}'`).join(', '),
};

export type TypeFamily = keyof typeof TYPE_FAMILY_SQL;

export interface SearchFilters {
  type?: TitleType;
  year?: number;
}

export interface Slice {
  limit: number;
  offset: number;
}

/** Read queries over the live catalog, as raw SQL the planner serves from indexes. */
@Injectable()
export class TitleRepository {
  constructor(private readonly db: Database) {}

  async findByImdbId(imdbId: string): Promise<TitleRow | null> {
    const rows = await this.db.query<TitleRow>(`SELECT ${TITLE_COLUMNS} FROM titles WHERE imdb_id = $1`, [
      imdbId,
    ]);
    return rows[0] ?? null;
  }

  /**
   * One family (movies or series) by votes, then id, with its size from catalog_state, in one round
   * trip. A page past the end skips the scan (one-time filter) and yields a single row of nulls.
   */
  async listFamily(family: TypeFamily, slice: Slice): Promise<{ rows: TitleRow[]; total: number }> {
    const rows = await this.db.query<TitleRow & { total: number }>(
      `SELECT state.total, page.*
       FROM (SELECT ${family === 'movies' ? 'movie_count' : 'series_count'} AS total FROM catalog_state WHERE id = 1) state
       LEFT JOIN LATERAL (
         SELECT ${TITLE_COLUMNS} FROM titles
         WHERE type IN (${TYPE_FAMILY_SQL[family]}) AND $2 < state.total
         ORDER BY rating_votes DESC, id LIMIT $1 OFFSET $2
       ) page ON true`,
      [slice.limit, slice.offset],
    );
    return { rows: rows.filter((row) => row.id !== null), total: rows[0]?.total ?? 0 };
  }

  /**
   * Titles holding every query token in title or original title. Relevance: an exact title (all of
   * its tokens, in order) first, then the share of the title's words the query covers; then votes, id.
   */
  async search(
    query: SearchQuery,
    filters: SearchFilters,
    slice: Slice,
  ): Promise<{ rows: TitleRow[]; total: number }> {
    const params: unknown[] = [toTsQuery(query.tokens)];
    let where = 'search_vector @@ $1::tsquery';
    if (filters.type !== undefined) {
      params.push(filters.type);
      where += ` AND type = $${params.length}`;
    }
    if (filters.year !== undefined) {
      params.push(filters.year);
      where += ` AND year = $${params.length}`;
    }
    const countQuery = this.db.query<{ total: number }>(
      `SELECT count(*)::int AS total FROM titles WHERE ${where}`,
      params,
    );
    const n = params.length;
    const rowsQuery = this.db.query<TitleRow>(
      `SELECT ${TITLE_COLUMNS} FROM titles WHERE ${where}
       ORDER BY CASE WHEN search_title_key = $${n + 1} OR search_original_key = $${n + 1} THEN 2.0
                     ELSE $${n + 2}::float8 / greatest(length(search_vector), 1) END DESC,
                rating_votes DESC, id
       LIMIT $${n + 3} OFFSET $${n + 4}`,
      [...params, query.key, new Set(query.tokens).size, slice.limit, slice.offset],
    );
    const [[count], rows] = await Promise.all([countQuery, rowsQuery]);
    return { rows, total: count?.total ?? 0 };
  }
}
