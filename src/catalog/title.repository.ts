import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';
import { titleSelectSql } from './title-columns';
import type { TitleRow } from './title.serializer';

export type TypeFamily = 'movies' | 'series';

export interface Slice {
  limit: number;
  offset: number;
}

/** Read queries over the live catalog, as raw SQL the planner serves from indexes. */
@Injectable()
export class TitleRepository {
  constructor(private readonly db: Database) {}

  async findByImdbId(imdbId: string): Promise<TitleRow | null> {
    const rows = await this.db.query<TitleRow>(
      `SELECT ${titleSelectSql('t')} FROM titles t WHERE t.imdb_id = $1`,
      [imdbId],
    );
    return rows[0] ?? null;
  }

  /**
   * One family (movies or series) by votes, then id, with its size from catalog_state, in one round
   * trip. The loader stores each title's position in its family (list_rank), so any page is an
   * index range on title_search, whatever its depth; a page past the end yields one row of nulls.
   */
  async listFamily(family: TypeFamily, slice: Slice): Promise<{ rows: TitleRow[]; total: number }> {
    const rows = await this.db.query<TitleRow & { total: number }>(
      `SELECT state.total, page.*
       FROM (SELECT ${family === 'movies' ? 'movie_count' : 'series_count'} AS total FROM catalog_state WHERE id = 1) state
       LEFT JOIN LATERAL (
         SELECT ${titleSelectSql('t')}
         FROM title_search s JOIN titles t ON t.id = s.id
         WHERE s.family = $1 AND s.list_rank > $2 AND s.list_rank <= $2 + $3
         ORDER BY s.list_rank
       ) page ON true`,
      [family, slice.offset, slice.limit],
    );
    return { rows: rows.filter((row) => row.id !== null), total: rows[0]?.total ?? 0 };
  }
}
