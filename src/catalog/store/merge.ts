import type { SqlExecutor } from '../../database/database';
import { MOVIE_TYPES, SERIES_TYPES } from '../title';
import { TITLE_COLUMNS, type TitleColumn } from '../title-columns';
import type { CatalogLoadResult } from './catalog-load';
import { fromStagingSql } from './staging';

/** The digest of a whole staged row: equal digests mean nothing to rewrite. */
const ROW_DIGEST_SQL = 'md5(s::text)';

/** Every titles column the merge writes (all but the identity), with its value from title_staging s. */
const MERGED = (TITLE_COLUMNS as readonly TitleColumn[])
  .filter((c) => c.source !== 'identity')
  .map((c) => ({ column: c.column, value: c.source === 'digest' ? ROW_DIGEST_SQL : fromStagingSql(c, 's') }));
const MERGED_COLUMNS = MERGED.map((m) => m.column).join(', ');
const MERGED_VALUES = MERGED.map((m) => m.value).join(', ');

/**
 * Makes the titles table what title_staging holds, inside the load transaction: removed titles go,
 * changed ones (by row digest) are rewritten in place so ids stay with their imdb_id, new ones are
 * inserted in imdb_id order; catalog_state gets the new version and counts.
 */
export async function mergeStagedTitles(tx: SqlExecutor, catalogVersion: string): Promise<CatalogLoadResult> {
  const removed = await countAffected(
    tx,
    `DELETE FROM titles t WHERE NOT EXISTS (SELECT 1 FROM title_staging s WHERE s.imdb_id = t.imdb_id)`,
  );
  const updated = await countAffected(
    tx,
    `UPDATE titles t SET (${MERGED_COLUMNS}) = (${MERGED_VALUES})
     FROM title_staging s
     WHERE t.imdb_id = s.imdb_id AND t.source_hash IS DISTINCT FROM ${ROW_DIGEST_SQL}`,
  );
  const inserted = await countAffected(
    tx,
    `INSERT INTO titles (${MERGED_COLUMNS})
     SELECT ${MERGED_VALUES} FROM title_staging s
     WHERE NOT EXISTS (SELECT 1 FROM titles t WHERE t.imdb_id = s.imdb_id)
     ORDER BY length(s.imdb_id), s.imdb_id`,
  );
  const [state] = await tx.query<Omit<CatalogLoadResult, 'inserted' | 'updated' | 'removed'>>(
    `UPDATE catalog_state SET
       catalog_version = $1,
       ingested_at = now(),
       title_count = totals.title_count,
       movie_count = totals.movie_count,
       series_count = totals.series_count,
       enrichment_complete = totals.title_count > 0 AND totals.enriched_count = totals.title_count
     FROM (
       SELECT count(*)::int AS title_count,
              (count(*) FILTER (WHERE type = ANY($2::text[])))::int AS movie_count,
              (count(*) FILTER (WHERE type = ANY($3::text[])))::int AS series_count,
              (count(*) FILTER (WHERE enriched))::int AS enriched_count
       FROM title_staging
     ) AS totals
     WHERE catalog_state.id = 1
     RETURNING catalog_version AS "catalogVersion", ingested_at AS "ingestedAt",
               totals.title_count AS "titleCount", totals.movie_count AS "movieCount",
               totals.series_count AS "seriesCount", totals.enriched_count AS "enrichedCount"`,
    [catalogVersion, MOVIE_TYPES, SERIES_TYPES],
  );
  return { ...state, inserted, updated, removed };
}

/**
 * A version for an unnamed catalog, derived from its content: SHA-256 over the per-title digests
 * (the same digest the merge compares), in id order. Identical catalogs get identical versions.
 */
export async function contentVersion(session: SqlExecutor): Promise<string> {
  const [row] = await session.query<{ version: string }>(
    `SELECT 'sha256-' || left(encode(sha256(convert_to(
       coalesce(string_agg(${ROW_DIGEST_SQL}, '' ORDER BY s.imdb_id), ''), 'UTF8')), 'hex'), 16) AS version
     FROM title_staging s`,
  );
  return row.version;
}

/** Runs a data-changing statement and counts its rows in the database, not in Node. */
async function countAffected(tx: SqlExecutor, statement: string): Promise<number> {
  const [result] = await tx.query<{ count: number }>(
    `WITH affected AS (${statement} RETURNING 1) SELECT count(*)::int AS count FROM affected`,
  );
  return result?.count ?? 0;
}
