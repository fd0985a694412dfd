import { SERIES_TYPES, type Title, type TitleRecord } from './title';

/** A column's type in the titles table, spelled as PostgreSQL's format_type() spells it. */
export type TitleSqlType = 'integer' | 'text' | 'text[]' | 'numeric(3,1)' | 'boolean';

/**
 * Which input fills a column (the contract's precedence: IMDb for what it carries, enrichment for
 * the rest, and runtime or genres only where IMDb has none).
 */
export type TitleColumnSource =
  /** Assigned by the database once per imdb_id; never staged. */
  | 'identity'
  /** IMDb basics only. */
  | 'imdb'
  /** IMDb basics; enrichment where IMDb has none. */
  | 'imdb-else-enrichment'
  /** Enrichment; IMDb (none today) where enrichment has none. */
  | 'enrichment-else-imdb'
  /** The ratings file. */
  | 'ratings'
  /** True once an enrichment record was applied. */
  | 'enrichment-applied'
  /** The digest of the staged row, computed by the merge. */
  | 'digest';

/** A Title field, or one of the two fields of its `ratings` object. */
export type TitleApiField = Exclude<keyof Title, 'ratings'> | 'ratings.average' | 'ratings.votes';

export interface TitleColumn {
  /** Column of the titles table (and of the selected row, so TitleRow keys are column names). */
  readonly column: string;
  readonly sqlType: TitleSqlType;
  readonly notNull: boolean;
  /** The TitleRecord property the loader stages it from; null where the store makes the value. */
  readonly record: keyof TitleRecord | null;
  readonly source: TitleColumnSource;
  /** Only series types carry a value: other types store and serve null. */
  readonly seriesOnly?: boolean;
  /** The field of the Title resource it is served as; null when it is not served. */
  readonly api: TitleApiField | null;
}

/**
 * The titles table in table order: the one source for staging, merge, SELECT and serializer.
 * test/title-columns.e2e-spec.ts checks it against the migrated schema; keep served columns in contract order.
 */
export const TITLE_COLUMNS = [
  { column: 'id', sqlType: 'integer', notNull: true, record: null, source: 'identity', api: 'id' },
  { column: 'imdb_id', sqlType: 'text', notNull: true, record: 'imdbId', source: 'imdb', api: 'imdb_id' },
  { column: 'type', sqlType: 'text', notNull: true, record: 'type', source: 'imdb', api: 'type' },
  { column: 'title', sqlType: 'text', notNull: true, record: 'title', source: 'imdb', api: 'title' },
  col('original_title', 'text', 'originalTitle', 'imdb'),
  col('year', 'integer', 'year', 'imdb'),
  col('end_year', 'integer', 'endYear', 'imdb'),
  col('runtime_minutes', 'integer', 'runtimeMinutes', 'imdb-else-enrichment'),
  col('genres', 'text[]', 'genres', 'imdb-else-enrichment'),
  col('content_rating', 'text', 'contentRating', 'enrichment-else-imdb'),
  col('plot', 'text', 'plot', 'enrichment-else-imdb'),
  col('languages', 'text[]', 'languages', 'enrichment-else-imdb'),
  col('countries', 'text[]', 'countries', 'enrichment-else-imdb'),
  col('directors', 'text[]', 'directors', 'enrichment-else-imdb'),
  col('writers', 'text[]', 'writers', 'enrichment-else-imdb'),
  col('actors', 'text[]', 'actors', 'enrichment-else-imdb'),
  col('awards', 'text', 'awards', 'enrichment-else-imdb'),
  col('poster_url', 'text', 'posterUrl', 'enrichment-else-imdb'),
  col('box_office', 'text', 'boxOffice', 'enrichment-else-imdb'),
  col('production', 'text', 'production', 'enrichment-else-imdb'),
  { ...col('total_seasons', 'integer', 'totalSeasons', 'enrichment-else-imdb'), seriesOnly: true },
  {
    column: 'rating_average',
    sqlType: 'numeric(3,1)',
    notNull: true,
    record: 'ratingAverage',
    source: 'ratings',
    api: 'ratings.average',
  },
  {
    column: 'rating_votes',
    sqlType: 'integer',
    notNull: true,
    record: 'ratingVotes',
    source: 'ratings',
    api: 'ratings.votes',
  },
  {
    column: 'enriched',
    sqlType: 'boolean',
    notNull: true,
    record: 'enriched',
    source: 'enrichment-applied',
    api: null,
  },
  { column: 'source_hash', sqlType: 'text', notNull: false, record: null, source: 'digest', api: null },
] as const satisfies readonly TitleColumn[];

/** A nullable column served under its own name. */
function col<
  const Column extends TitleApiField,
  const Record extends keyof TitleRecord,
  const Source extends TitleColumnSource,
>(column: Column, sqlType: TitleSqlType, record: Record, source: Source) {
  return { column, sqlType, notNull: false, record, source, api: column } as const;
}

type StagedColumn = TitleColumn & { record: keyof TitleRecord };

/** The columns the loader stages from a TitleRecord, in table order. */
export const STAGED_COLUMNS: readonly StagedColumn[] = (TITLE_COLUMNS as readonly TitleColumn[]).filter(
  (c): c is StagedColumn => c.record !== null,
);

/** The columns an input besides the titles themselves fills: the ratings file, or enrichment. */
export function columnsFilledBy(input: 'ratings' | 'enrichment'): readonly StagedColumn[] {
  return STAGED_COLUMNS.filter((c) =>
    input === 'ratings'
      ? c.source === 'ratings'
      : c.source === 'imdb-else-enrichment' || c.source === 'enrichment-else-imdb',
  );
}

type ColumnOf<Source extends TitleColumnSource> = Extract<(typeof TITLE_COLUMNS)[number], { source: Source }>;

/** The fields only enrichment provides (IMDb basics carry none of them). */
type EnrichmentOnlyField = ColumnOf<'enrichment-else-imdb'>['record'];

/** The fields an enrichment record can fill (OMDb-shaped input). */
export type EnrichableField = ColumnOf<'imdb-else-enrichment' | 'enrichment-else-imdb'>['record'];

/** A title's enrichment-only fields before any enrichment: all unknown, and not enriched. */
export const NOT_ENRICHED = Object.freeze({
  ...Object.fromEntries(
    STAGED_COLUMNS.filter((c) => c.source === 'enrichment-else-imdb').map((c) => [c.record, null]),
  ),
  enriched: false,
}) as { readonly [K in EnrichmentOnlyField]: null } & { readonly enriched: false };

/** The served columns, in the contract's field order. */
const SERVED_COLUMNS = (TITLE_COLUMNS as readonly TitleColumn[]).filter(
  (c): c is TitleColumn & { api: TitleApiField } => c.api !== null,
);

/**
 * The titles columns a Title is made from, selected from the table aliased `alias`. numeric comes
 * back from the driver as text, so the rating is selected as float8 (a JSON number).
 */
export function titleSelectSql(alias: string): string {
  return SERVED_COLUMNS.map((c) =>
    c.sqlType === 'numeric(3,1)' ? `${alias}.${c.column}::float8 AS ${c.column}` : `${alias}.${c.column}`,
  ).join(', ');
}

/** A titles row as the read side selects it (titleSelectSql): column name → value. */
export type SelectedRow = Readonly<Record<string, unknown>>;

/** The same row typed: the Title's columns, the rating flattened into its two columns. */
export type TitleRow = Omit<Title, 'ratings'> & { rating_average: number; rating_votes: number };

/** How one served column becomes its Title field. */
type FieldReader = (row: SelectedRow) => unknown;

function reader(c: TitleColumn): FieldReader {
  const name = c.column;
  if (c.sqlType === 'text[]') {
    // Lists are null or non-empty, never [].
    return (row) => {
      const values = row[name] as string[] | null;
      return values && values.length > 0 ? values : null;
    };
  }
  if (c.seriesOnly) {
    return (row) => (SERIES_TYPES.includes(row.type as Title['type']) ? row[name] : null);
  }
  // Some drivers return integers of NOT NULL columns as text (bigint, numeric): always a number.
  if (c.notNull && (c.sqlType === 'integer' || c.sqlType === 'numeric(3,1)')) {
    return (row) => Number(row[name]);
  }
  return (row) => row[name];
}

/** [Title field, nested field or null, reader], in the contract's order. */
export const TITLE_FIELD_READERS: ReadonlyArray<
  readonly [field: keyof Title, nested: string | null, read: FieldReader]
> = SERVED_COLUMNS.map((c) => {
  const [field, nested] = c.api.split('.') as [keyof Title, string | undefined];
  return [field, nested ?? null, reader(c)] as const;
});
