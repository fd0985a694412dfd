import { Injectable } from '@nestjs/common';
import type { Slice } from '../common/envelope';
import { CatalogReadDatabase } from '../database/catalog-read-database';
import { type TitleRow, titleSelectSql } from './title-columns';

export type TypeFamily = 'movies' | 'series';

/** A title by IMDb id with the live catalog version, in one statement (see `findByImdbId`). */
const TITLE_BY_IMDB_ID_SQL = `SELECT state.catalog_version, ${titleSelectSql('t')}
  FROM (SELECT catalog_version FROM catalog_state WHERE id = 1) state
  LEFT JOIN titles t ON t.imdb_id = $1`;

/** Read queries over the live catalog, as raw SQL the planner serves from indexes. */
@Injectable()
export class TitleRepository {
  constructor(private readonly db: CatalogReadDatabase) {}

  /**
   * One title (or null) and the version of the catalog it was read from, in one statement, so both
   * come from the same snapshot: an ingest commits titles and catalog_state together.
   */
  async findByImdbId(imdbId: string): Promise<{ version: string | null; row: TitleRow | null }> {
    const rows = await this.db.query<TitleRow & { catalog_version: string | null }>(TITLE_BY_IMDB_ID_SQL, [
      imdbId,
    ]);
    const row = rows[0];
    return { version: row?.catalog_version ?? null, row: row && row.id !== null ? row : null };
  }

  /**
   * One family (movies or series) by votes, then id, with its size and the catalog version from
   * catalog_state, in one statement (one snapshot, one round trip). The loader stores each title's position in its family (list_rank), so any page is an
   * index range on title_search, whatever its depth; a page past the end yields one row of nulls.
   */
  async listFamily(
    family: TypeFamily,
    slice: Slice,
  ): Promise<{ rows: TitleRow[]; total: number; version: string | null }> {
    const rows = await this.db.query<TitleRow & { total: number; catalog_version: string | null }>(
      `SELECT state.total, state.catalog_version, page.*
       FROM (
         SELECT ${family === 'movies' ? 'movie_count' : 'series_count'} AS total, catalog_version
         FROM catalog_state WHERE id = 1
       ) state
       LEFT JOIN LATERAL (
         SELECT ${titleSelectSql('t')}
         FROM title_search s JOIN titles t ON t.id = s.id
         WHERE s.family = $1 AND s.list_rank > $2 AND s.list_rank <= $2 + $3
         ORDER BY s.list_rank
       ) page ON true`,
      [family, slice.offset, slice.limit],
    );
    return {
      rows: rows.filter((row) => row.id !== null),
      total: rows[0]?.total ?? 0,
      version: rows[0]?.catalog_version ?? null,
    };
  }
}
