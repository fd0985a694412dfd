import { Injectable } from '@nestjs/common';
import type { Versioned } from '../../src/common/conditional/versioned';
import { CatalogReadDatabase } from '../../src/database/catalog-read-database';

/** One genre and how many titles of the live catalog carry it. */
export interface GenreCount {
  genre: string;
  titles: number;
}

/**
 * The counts and the catalog version in one statement (one snapshot: an ingest commits titles and
 * catalog_state together), so the ETag names exactly the data it tags.
 */
const GENRE_COUNTS_SQL = `SELECT state.catalog_version, counts.genre, counts.titles
  FROM (SELECT catalog_version FROM catalog_state WHERE id = 1) state
  LEFT JOIN LATERAL (
    SELECT genre, count(*)::int AS titles
    FROM titles, unnest(genres) AS genre
    GROUP BY genre
    HAVING count(*) >= $1
  ) counts ON true
  ORDER BY counts.titles DESC, counts.genre`;

@Injectable()
export class GenreCountRepository {
  /**
   * Catalog reads go through `CatalogReadDatabase` (a read replica under DATABASE_READ_URL, else the
   * primary); it comes from the global DatabaseModule: nothing to import.
   */
  constructor(private readonly db: CatalogReadDatabase) {}

  async count(minTitles: number): Promise<Versioned<GenreCount[]>> {
    const rows = await this.db.query<{
      catalog_version: string | null;
      genre: string | null;
      titles: number;
    }>(GENRE_COUNTS_SQL, [minTitles]);
    return {
      version: rows[0]?.catalog_version ?? null,
      value: rows.filter((row) => row.genre !== null).map(({ genre, titles }) => ({ genre: genre!, titles })),
    };
  }
}
