import type { SqlExecutor, SqlSession } from '../../database/database';
import { searchDocument } from '../search/search-text';
import { SERIES_TYPES, type TitleRecord } from '../title';
import { STAGED_COLUMNS, type TitleColumn, columnsFilledBy } from '../title-columns';
import { type StagingValue, bulkLoad } from './bulk-load';
import type { EnrichmentRecord, RatingRecord, Records } from './catalog-load';

/**
 * The load's temporary tables, derived from TITLE_COLUMNS: titles as read and the side inputs in
 * arrival order, joined by combineStagedTitles into title_staging for the merge and search index.
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
  // Derived from the keys above, so left out of the row digest: content versions stay unchanged.
  'search_word_sets text NOT NULL',
] as const;
const UNDIGESTED_COLUMNS: ReadonlySet<string> = new Set(['search_word_sets']);

/**
 * md5 of staged row `alias`'s text form without derived columns (equal digests: nothing to
 * rewrite); the ROW must list the columns in table order to match the row's text form.
 */
export function rowDigestSql(alias: string): string {
  const columns = [
    ...STAGED_COLUMNS.map((c) => c.column),
    ...SEARCH_STAGING_COLUMNS.map((definition) => definition.split(' ')[0]),
  ].filter((column) => !UNDIGESTED_COLUMNS.has(column));
  return `md5(ROW(${columns.map((column) => `${alias}.${column}`).join(', ')})::text)`;
}

type StagedColumn = (typeof STAGED_COLUMNS)[number];
type SideInput = 'ratings' | 'enrichment';

const SIDE_TABLES: Record<SideInput, string> = {
  ratings: 'rating_staging',
  enrichment: 'enrichment_staging',
};

/** The titles as read, before the side inputs are joined in. */
const TITLE_INPUT_TABLE = 'title_input_staging';
const INPUT_TABLES = [TITLE_INPUT_TABLE, ...Object.values(SIDE_TABLES)].join(', ');

export const DROP_STAGING_SQL = `DROP TABLE IF EXISTS title_staging, ${INPUT_TABLES}`;

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
  await session.query(`CREATE TEMP TABLE ${TITLE_INPUT_TABLE} (${titleColumns.join(', ')})`);
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
  await bulkLoad(session, TITLE_INPUT_TABLE, columns, titleRows(titles));
}

/** Stages the ratings as read; combineStagedTitles applies them. */
export async function stageRatings(session: SqlSession, ratings: Records<RatingRecord>): Promise<void> {
  await stageSideInput(session, 'ratings', ratings);
}

/** Stages the enrichment records as read; combineStagedTitles applies them. */
export async function stageEnrichment(
  session: SqlSession,
  enrichments: Records<EnrichmentRecord>,
): Promise<void> {
  await stageSideInput(session, 'enrichment', enrichments);
}

/**
 * Writes title_staging in one join by TITLE_COLUMNS' precedence rule (an UPDATE per side input
 * rewrote every row twice); the inputs are dropped at once to free their space.
 */
export async function combineStagedTitles(session: SqlExecutor): Promise<void> {
  const values = [
    ...STAGED_COLUMNS.map((c) => `${combinedValue(c)} AS ${c.column}`),
    ...SEARCH_STAGING_COLUMNS.map((definition) => `s.${definition.split(' ')[0]}`),
  ];
  await session.query(
    `CREATE TEMP TABLE title_staging AS
     SELECT ${values.join(', ')}
     FROM ${TITLE_INPUT_TABLE} s
     LEFT JOIN (${latestSql('ratings')}) r ON r.imdb_id = s.imdb_id
     LEFT JOIN (${latestSql('enrichment')}) x ON x.imdb_id = s.imdb_id`,
    [SERIES_TYPES],
  );
  await session.query(`DROP TABLE ${INPUT_TABLES}`);
  // Statistics for the merge's plans: without them the planner guessed a tenth of the rows and
  // sorted the whole wide table to join it.
  await session.query('ANALYZE title_staging');
}

function combinedValue(c: StagedColumn): string {
  const staged = `s.${c.column}`;
  if (c.source === 'ratings') return `CASE WHEN r.imdb_id IS NULL THEN ${staged} ELSE r.${c.column} END`;
  const enriched = `x.${c.column}`;
  let value: string;
  switch (c.source) {
    case 'enrichment-applied':
      value = 'true';
      break;
    case 'imdb-else-enrichment':
      value = `coalesce(${staged}, ${enriched})`;
      break;
    case 'enrichment-else-imdb':
      value = `coalesce(${enriched}, ${staged})`;
      break;
    default:
      return staged;
  }
  if (c.seriesOnly) value = `CASE WHEN s.type = ANY($1::text[]) THEN ${value} END`;
  return `CASE WHEN x.imdb_id IS NULL THEN ${staged} ELSE ${value} END`;
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

/**
 * The latest side-input row per id (where an id repeats, the last one wins): an anti-join on the
 * narrow (imdb_id, seq) pairs, where DISTINCT ON sorted the whole wide input.
 */
function latestSql(input: SideInput): string {
  const table = SIDE_TABLES[input];
  return `SELECT * FROM ${table} side WHERE NOT EXISTS
    (SELECT 1 FROM ${table} later WHERE later.imdb_id = side.imdb_id AND later.seq > side.seq)`;
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
      search.wordSets.join(LIST_SEPARATOR),
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
