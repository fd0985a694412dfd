import type { SqlExecutor, SqlSession } from '../../database/database';
import { searchDocument } from '../search/search-text';
import { SERIES_TYPES, type TitleRecord } from '../title';
import { STAGED_COLUMNS, type TitleColumn, columnsFilledBy } from '../title-columns';
import { type StagingValue, bulkLoad } from './bulk-load';
import type { EnrichmentRecord, RatingRecord, Records } from './catalog-load';

/**
 * The load's temporary tables, all derived from TITLE_COLUMNS: title_staging holds one row per
 * title with every stored column (lists as one text value) plus the search text the search index
 * is built from; rating_staging and enrichment_staging hold the side inputs in arrival order (seq),
 * which are then joined to the staged titles by the contract's precedence rule.
 */

/** Separates list items in the staging tables; never part of a normalized value. */
const LIST_SEPARATOR = '\u001f';

/** What buildSearchIndex reads from title_staging besides the title columns. */
const SEARCH_STAGING_COLUMNS = [
  'search_lexemes text NOT NULL',
  'search_title_key text NOT NULL',
  'search_title_bare_key text NOT NULL',
  'search_original_key text',
  'search_original_bare_key text',
] as const;

type StagedColumn = (typeof STAGED_COLUMNS)[number];
type SideInput = 'ratings' | 'enrichment';

const SIDE_TABLES: Record<SideInput, string> = {
  ratings: 'rating_staging',
  enrichment: 'enrichment_staging',
};

export const DROP_STAGING_SQL = `DROP TABLE IF EXISTS title_staging, ${Object.values(SIDE_TABLES).join(', ')}`;

/** A live column's value from its staged text: lists are split again. */
export function fromStagingSql(column: TitleColumn, alias: string): string {
  const staged = `${alias}.${column.column}`;
  return column.sqlType === 'text[]' ? `string_to_array(${staged}, E'\\x1f')` : staged;
}

function stagingDefinition(column: StagedColumn): string {
  const type = column.sqlType === 'text[]' ? 'text' : column.sqlType;
  const key = column.column === 'imdb_id' ? ' PRIMARY KEY' : column.notNull ? ' NOT NULL' : '';
  return `${column.column} ${type}${key}`;
}

export async function createStagingTables(session: SqlExecutor): Promise<void> {
  await session.query(DROP_STAGING_SQL);
  const titleColumns = [...STAGED_COLUMNS.map(stagingDefinition), ...SEARCH_STAGING_COLUMNS];
  await session.query(`CREATE TEMP TABLE title_staging (${titleColumns.join(', ')})`);
  for (const input of ['ratings', 'enrichment'] as const) {
    const columns = [
      'seq integer NOT NULL',
      'imdb_id text NOT NULL',
      ...columnsFilledBy(input).map(stagingDefinition),
    ];
    await session.query(`CREATE TEMP TABLE ${SIDE_TABLES[input]} (${columns.join(', ')})`);
  }
}

export async function stageTitles(session: SqlSession, titles: Records<TitleRecord>): Promise<void> {
  const columns = [
    ...STAGED_COLUMNS.map((c) => c.column),
    ...SEARCH_STAGING_COLUMNS.map((definition) => definition.split(' ')[0]),
  ];
  await bulkLoad(session, 'title_staging', columns, titleRows(titles));
}

/** Stages the ratings, then gives each staged title its rating (the last one for its id). */
export async function stageRatings(session: SqlSession, ratings: Records<RatingRecord>): Promise<void> {
  await stageSideInput(session, 'ratings', ratings);
  const assignments = columnsFilledBy('ratings').map((c) => `${c.column} = x.${c.column}`);
  await session.query(applySql('ratings', assignments));
}

/**
 * Stages the enrichment records, then applies each (the last one for its id) to its staged title
 * by the precedence rule of TITLE_COLUMNS: IMDb is authoritative for what it carries; enrichment
 * fills the other fields, and runtime or genres only where IMDb has none; total_seasons belongs to
 * series types only.
 */
export async function stageEnrichment(
  session: SqlSession,
  enrichments: Records<EnrichmentRecord>,
): Promise<void> {
  await stageSideInput(session, 'enrichment', enrichments);
  const assignments = STAGED_COLUMNS.flatMap((c) => {
    const staged = `s.${c.column}`;
    const enriched = `x.${c.column}`;
    let value: string;
    switch (c.source) {
      case 'enrichment-applied':
        return [`${c.column} = true`];
      case 'imdb-else-enrichment':
        value = `coalesce(${staged}, ${enriched})`;
        break;
      case 'enrichment-else-imdb':
        value = `coalesce(${enriched}, ${staged})`;
        break;
      default:
        return [];
    }
    if (c.seriesOnly) value = `CASE WHEN s.type = ANY($1::text[]) THEN ${value} END`;
    return [`${c.column} = ${value}`];
  });
  await session.query(applySql('enrichment', assignments), [SERIES_TYPES]);
}

async function stageSideInput<T extends Partial<TitleRecord>>(
  session: SqlSession,
  input: SideInput,
  records: Records<T>,
): Promise<void> {
  const filled = columnsFilledBy(input);
  const encoders = filled.map(encoder);
  async function* rows(): AsyncGenerator<StagingValue[]> {
    let seq = 0;
    for await (const record of records) {
      const row: StagingValue[] = [seq++, record.imdbId ?? null];
      for (const encode of encoders) row.push(encode(record));
      yield row;
    }
  }
  await bulkLoad(session, SIDE_TABLES[input], ['seq', 'imdb_id', ...filled.map((c) => c.column)], rows());
}

/** An UPDATE of title_staging from the latest side-input row per id (aliased x). */
function applySql(input: SideInput, assignments: readonly string[]): string {
  return `UPDATE title_staging s SET ${assignments.join(', ')}
    FROM (SELECT DISTINCT ON (imdb_id) * FROM ${SIDE_TABLES[input]} ORDER BY imdb_id, seq DESC) x
    WHERE x.imdb_id = s.imdb_id`;
}

const TITLE_ENCODERS = STAGED_COLUMNS.map(encoder);

async function* titleRows(records: Records<TitleRecord>): AsyncGenerator<StagingValue[]> {
  for await (const record of records) {
    const row: StagingValue[] = [];
    for (const encode of TITLE_ENCODERS) row.push(encode(record));
    const search = searchDocument(record.title, record.originalTitle);
    row.push(
      search.lexemes.join(' '),
      search.titleKey,
      search.titleBareKey,
      search.originalKey,
      search.originalBareKey,
    );
    yield row;
  }
}

/** How a record's property becomes its staged value: lists as one separated text, or null. */
function encoder(column: StagedColumn): (record: Partial<TitleRecord>) => StagingValue {
  const property = column.record;
  if (column.sqlType === 'text[]') {
    return (record) => {
      const values = record[property] as string[] | null | undefined;
      return values && values.length > 0 ? values.join(LIST_SEPARATOR) : null;
    };
  }
  return (record) => (record[property] as StagingValue | undefined) ?? null;
}
