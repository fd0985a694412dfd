import { Injectable } from '@nestjs/common';
import { CatalogReadDatabase } from '../database/catalog-read-database';
import type { SqlExecutor } from '../database/database';

/** What /health reports about the live catalog. */
export interface CatalogState {
  catalogVersion: string | null;
  titleCount: number;
  ingestedAt: Date | null;
  enrichmentComplete: boolean;
}

const STATE_SQL = `SELECT catalog_version AS "catalogVersion", title_count AS "titleCount",
  ingested_at AS "ingestedAt", enrichment_complete AS "enrichmentComplete"
  FROM catalog_state WHERE id = 1`;

/**
 * The one read of the live catalog's state row (raw SQL: it runs on hot paths), on the server that
 * serves the catalog's reads (a read replica with DATABASE_READ_URL).
 */
@Injectable()
export class CatalogStateRepository {
  constructor(private readonly db: CatalogReadDatabase) {}

  /** `on`: another connection to the same server (the change feed's session); by default the reads'. */
  async current(on: SqlExecutor = this.db): Promise<CatalogState> {
    const rows = await on.query<CatalogState>(STATE_SQL);
    if (!rows[0]) throw new Error('catalog_state has no row');
    return rows[0];
  }
}
