import { Injectable } from '@nestjs/common';
import type { Slice } from '../common/envelope';
import { CatalogReadDatabase } from '../database/catalog-read-database';
import { CATALOG_VERSION, catalogStateFrom, versionOf } from '../database/versioned-read';
import { BatchedReads } from './batched-reads';
import { type TitleRow, titleSelectSql } from './title-columns';

export type TypeFamily = 'movies' | 'series';

/** Titles by IMDb id with the catalog version: a row per id asked, in order, nulls for one the catalog lacks. */
const TITLES_BY_IMDB_IDS_SQL = `SELECT ${CATALOG_VERSION}, ${titleSelectSql('t')}
  ${catalogStateFrom()}
  CROSS JOIN unnest($1::text[]) WITH ORDINALITY AS wanted(imdb_id, position)
  LEFT JOIN titles t ON t.imdb_id = wanted.imdb_id
  ORDER BY wanted.position`;

/** Cache misses share statements (`BatchedReads`); the wait bound keeps each lookup's own deadline. */
export const TITLE_READS_IN_FLIGHT = 2;
export const TITLE_READ_BATCH = 100;
export const TITLE_READ_MAX_WAIT_MS = 50;

export interface TitleRead {
  version: string | null;
  row: TitleRow | null;
}

/** Read queries over the live catalog, as raw SQL the planner serves from indexes. */
@Injectable()
export class TitleRepository {
  private readonly titleReads = new BatchedReads<string, TitleRead>(
    (imdbIds) => this.readByImdbIds(imdbIds),
    TITLE_READS_IN_FLIGHT,
    TITLE_READ_BATCH,
    TITLE_READ_MAX_WAIT_MS,
  );

  constructor(private readonly db: CatalogReadDatabase) {}

  /** One title (or null) and the catalog version it was read from; concurrent lookups share statements. */
  findByImdbId(imdbId: string): Promise<TitleRead> {
    return this.titleReads.read(imdbId);
  }

  private async readByImdbIds(imdbIds: string[]): Promise<TitleRead[]> {
    const rows = await this.db.query<TitleRow & { catalog_version: string | null }>(TITLES_BY_IMDB_IDS_SQL, [
      imdbIds,
    ]);
    return imdbIds.map((_, index) => {
      const row = rows[index];
      return { version: row?.catalog_version ?? null, row: row && row.id !== null ? row : null };
    });
  }

  /**
   * A page of one family (movies or series) by votes, then id, with its size and catalog version in
   * one statement; list_rank makes any page an index range (a page past the end: one row of nulls).
   */
  async listFamily(
    family: TypeFamily,
    slice: Slice,
  ): Promise<{ rows: TitleRow[]; total: number; version: string | null }> {
    const rows = await this.db.query<TitleRow & { total: number; catalog_version: string | null }>(
      `SELECT state.total, ${CATALOG_VERSION}, page.*
       ${catalogStateFrom(`${family === 'movies' ? 'movie_count' : 'series_count'} AS total`)}
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
      version: versionOf(rows),
    };
  }
}
