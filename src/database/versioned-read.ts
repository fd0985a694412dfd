import type { Versioned } from '../common/conditional/versioned';
import type { SqlExecutor } from './database';

/**
 * The version that keys caches and ETags: the catalog's label (`--catalog-version`, or its content
 * hash) and the number of the load that committed it. Every committed load changes it, also one
 * under a label already served; null before the first load (no label).
 */
export const LOAD_VERSION_SQL = `catalog_version || '#' || load_number`;

/**
 * catalog_state as FROM item `state`: joined in the same statement, rows and version share a
 * snapshot. Its `catalog_version` is the load's version (`LOAD_VERSION_SQL`), not the bare label.
 */
export function catalogStateFrom(...extraColumns: string[]): string {
  const columns = [`${LOAD_VERSION_SQL} AS catalog_version`, ...extraColumns].join(', ');
  return `FROM (SELECT ${columns} FROM catalog_state WHERE id = 1) state`;
}

/** The version column a statement over `catalogStateFrom()` selects: the load's version. */
export const CATALOG_VERSION = 'state.catalog_version';

/** The version of rows selected with `CATALOG_VERSION` (null: no catalog, or no row). */
export function versionOf(rows: ReadonlyArray<{ catalog_version: string | null }>): string | null {
  return rows[0]?.catalog_version ?? null;
}

const FOUND = 'versioned_read_found';

/**
 * `sql`'s rows and the catalog version they were read from, in one statement; `orderBy` orders
 * them (by their column names). Run it on `CatalogReadDatabase`, where catalog reads go.
 */
export async function readVersioned<Row extends object>(
  db: SqlExecutor,
  sql: string,
  params: readonly unknown[] = [],
  orderBy?: string,
): Promise<Versioned<Row[]>> {
  const rows = await db.query<Row & { catalog_version: string | null; [FOUND]: boolean | null }>(
    `SELECT ${CATALOG_VERSION}, r.*
     ${catalogStateFrom()}
     LEFT JOIN LATERAL (SELECT true AS ${FOUND}, q.* FROM (${sql}) q) r ON true` +
      (orderBy ? ` ORDER BY ${orderBy}` : ''),
    params,
  );
  return {
    version: versionOf(rows),
    value: rows
      .filter((row) => row[FOUND] !== null)
      .map(({ catalog_version: _version, [FOUND]: _found, ...row }) => row as Row),
  };
}
