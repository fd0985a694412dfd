import { Injectable } from '@nestjs/common';
import { CatalogReadDatabase, type Versioned, readVersioned } from '../../src/route-kit';

/** One genre and how many titles of the live catalog carry it. */
export interface GenreCount {
  genre: string;
  titles: number;
}

const GENRE_COUNTS_SQL = `SELECT genre, count(*)::int AS titles
  FROM titles, unnest(genres) AS genre
  GROUP BY genre
  HAVING count(*) >= $1`;

@Injectable()
export class GenreCountRepository {
  /** Catalog reads go to `CatalogReadDatabase` (a read replica when configured), from the global DatabaseModule. */
  constructor(private readonly db: CatalogReadDatabase) {}

  /** The counts and the catalog version they were read from, in one statement, so the ETag names them. */
  count(minTitles: number): Promise<Versioned<GenreCount[]>> {
    return readVersioned<GenreCount>(this.db, GENRE_COUNTS_SQL, [minTitles], 'titles DESC, genre');
  }
}
