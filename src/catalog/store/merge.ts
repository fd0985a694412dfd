import type { SqlExecutor } from '../../database/database';
import { MOVIE_TYPES, SERIES_TYPES } from '../title';
import { TITLE_COLUMNS, type TitleColumn } from '../title-columns';
import type { CatalogLoadResult } from './catalog-load';
import { fromStagingSql, rowDigestSql } from './staging';

const TITLE_ID_SEQUENCE = "pg_get_serial_sequence('titles', 'id')";

/** The digest of a whole staged row: equal digests mean nothing to rewrite. */
const ROW_DIGEST_SQL = rowDigestSql('s');

/** Every titles column the merge writes (all but the identity), with its value from title_staging s. */
const MERGED = (TITLE_COLUMNS as readonly TitleColumn[])
  .filter((c) => c.source !== 'identity')
  .map((c) => ({ column: c.column, value: c.source === 'digest' ? ROW_DIGEST_SQL : fromStagingSql(c, 's') }));
const MERGED_COLUMNS = MERGED.map((m) => m.column).join(', ');
const MERGED_VALUES = MERGED.map((m) => m.value).join(', ');

/**
 * An unnamed catalog's version: SHA-256 over the row digests in imdb_id order, after the merge, so
 * identical catalogs get identical versions.
 */
const CONTENT_VERSION_SQL = `SELECT 'sha256-' || left(encode(sha256(convert_to(
    coalesce(string_agg(source_hash, '' ORDER BY imdb_id), ''), 'UTF8')), 'hex'), 16) FROM titles`;

/**
 * Makes titles what title_staging holds; changed rows are rewritten in place so ids stay with their
 * imdb_id, new ones numbered in imdb_id order.
 */
export async function mergeStagedTitles(
  tx: SqlExecutor,
  catalogVersion: string | null,
): Promise<CatalogLoadResult> {
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
  // Sort only the ids (wide rows spilled ~0.8 GB at 1.3M) and number by row_number (nextval per
  // row cost seconds), then move the sequence past them; safe as one load runs at a time.
  const [{ lastId }] = await tx.query<{ lastId: string }>(
    `SELECT coalesce(pg_sequence_last_value(${TITLE_ID_SEQUENCE}::regclass), 0)::text AS "lastId"`,
  );
  const inserted = await countAffected(
    tx,
    `INSERT INTO titles (id, ${MERGED_COLUMNS})
     SELECT numbered.id, ${MERGED_VALUES}
     FROM title_staging s
     JOIN (
       SELECT s.imdb_id, $1::bigint + row_number() OVER (ORDER BY length(s.imdb_id), s.imdb_id) AS id
       FROM title_staging s
       WHERE NOT EXISTS (SELECT 1 FROM titles t WHERE t.imdb_id = s.imdb_id)
     ) AS numbered ON numbered.imdb_id = s.imdb_id`,
    [lastId],
  );
  if (inserted > 0) {
    await tx.query(`SELECT setval(${TITLE_ID_SEQUENCE}, $1::bigint + $2)`, [lastId, inserted]);
  }
  const [state] = await tx.query<Omit<CatalogLoadResult, 'inserted' | 'updated' | 'removed'>>(
    `UPDATE catalog_state SET
       catalog_version = coalesce($1, (${CONTENT_VERSION_SQL})),
       load_number = catalog_state.load_number + 1,
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

/** Runs a data-changing statement and counts its rows in the database, not in Node. */
async function countAffected(
  tx: SqlExecutor,
  statement: string,
  params?: readonly unknown[],
): Promise<number> {
  const [result] = await tx.query<{ count: number }>(
    `WITH affected AS (${statement} RETURNING 1) SELECT count(*)::int AS count FROM affected`,
    params,
  );
  return result?.count ?? 0;
}
