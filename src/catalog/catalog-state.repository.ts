import { Injectable } from '@nestjs/common';
import { KEYS_MARKER_FROM, type KeysMarker } from '../auth/keys-marker';
import { CatalogReadDatabase } from '../database/catalog-read-database';
import { LOAD_VERSION_SQL } from '../database/versioned-read';
import type { SqlExecutor } from '../database/database';

/** What /health reports about the live catalog, and the load's version the caches and ETags follow. */
export interface CatalogState {
  catalogVersion: string | null;
  /**
   * The label and the committed load's number (`LOAD_VERSION_SQL`), as the catalog's reads select
   * it: it changes with every load, the label only when the load names another.
   */
  loadVersion: string | null;
  titleCount: number;
  ingestedAt: Date | null;
  enrichmentComplete: boolean;
}

/** The state, and the keys' marker when the statement ran on the primary (else null). */
export interface StateRead {
  state: CatalogState;
  keysMarker: KeysMarker | null;
}

const STATE_COLUMNS = `catalog_version AS "catalogVersion", ${LOAD_VERSION_SQL} AS "loadVersion",
  title_count AS "titleCount",
  ingested_at AS "ingestedAt", enrichment_complete AS "enrichmentComplete"`;
const STATE_SQL = `SELECT ${STATE_COLUMNS} FROM catalog_state WHERE id = 1`;
const STATE_AND_KEYS_MARKER_SQL = `SELECT ${STATE_COLUMNS},
  keys_marker.count AS "keysCount", keys_marker.digest AS "keysDigest"
  FROM catalog_state, ${KEYS_MARKER_FROM} WHERE id = 1`;

type StateRow = CatalogState & { keysCount: number; keysDigest: string };

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

  /**
   * The state, plus the keys' marker only when the statement runs on the primary: a replica's copy
   * may lag behind a disable.
   */
  async read(primarySession?: SqlExecutor): Promise<StateRead> {
    if (!primarySession && !this.db.primaryOnly) return { state: await this.current(), keysMarker: null };
    const rows = await (primarySession ?? this.db).query<StateRow>(STATE_AND_KEYS_MARKER_SQL);
    if (!rows[0]) throw new Error('catalog_state has no row');
    const { keysCount, keysDigest, ...state } = rows[0];
    return { state, keysMarker: { count: Number(keysCount), digest: keysDigest } };
  }
}
