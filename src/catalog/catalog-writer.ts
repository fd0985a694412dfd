import { Injectable } from '@nestjs/common';
import { Readable } from 'node:stream';
import { Database, type SqlExecutor, type SqlSession } from '../database/database';
import { DEFAULT_PAIR_MIN_TITLES, SEARCH_TABLES, buildSearchIndex } from './search/search-index';
import { searchDocument } from './search/search-text';
import { type EnrichableField, MOVIE_TYPES, SERIES_TYPES, type TitleRecord } from './title';

/** Separates list items in the staging table; never part of a normalized value. */
const LIST_SEPARATOR = '\u001f';
/** Rows per multi-row INSERT are bounded by the protocol's bind parameters (65,535). */
const MAX_BIND_PARAMETERS = 10_000;
/** Memory for the load's sorts on PostgreSQL (the server's, not this process's). */
const LOAD_WORK_MEM = '512MB';
/** Fixed: one catalog load at a time per database. */
const LOAD_LOCK_KEY = 7_301_114_521;

const TITLE_STAGING_COLUMNS = [
  'imdb_id',
  'type',
  'title',
  'original_title',
  'year',
  'end_year',
  'runtime_minutes',
  'genres',
  'content_rating',
  'plot',
  'languages',
  'countries',
  'directors',
  'writers',
  'actors',
  'awards',
  'poster_url',
  'box_office',
  'production',
  'total_seasons',
  'rating_average',
  'rating_votes',
  'enriched',
  'search_lexemes',
  'search_title_key',
  'search_title_bare_key',
  'search_original_key',
  'search_original_bare_key',
] as const;

const RATING_STAGING_COLUMNS = ['seq', 'imdb_id', 'average', 'votes'] as const;
const ENRICHMENT_STAGING_COLUMNS = [
  'seq',
  'imdb_id',
  'runtime_minutes',
  'genres',
  'content_rating',
  'plot',
  'languages',
  'countries',
  'directors',
  'writers',
  'actors',
  'awards',
  'poster_url',
  'box_office',
  'production',
  'total_seasons',
] as const;

const DROP_STAGING_SQL = 'DROP TABLE IF EXISTS title_staging, rating_staging, enrichment_staging';

const APPLY_RATINGS_SQL = `
  UPDATE title_staging s SET rating_average = r.average, rating_votes = r.votes
  FROM (SELECT DISTINCT ON (imdb_id) imdb_id, average, votes FROM rating_staging ORDER BY imdb_id, seq DESC) r
  WHERE r.imdb_id = s.imdb_id`;

/**
 * The precedence rule of the contract, in one place: IMDb is authoritative for what it carries;
 * enrichment fills the other fields, and runtime or genres only where IMDb has none.
 * total_seasons belongs to series types only.
 */
const APPLY_ENRICHMENT_SQL = `
  UPDATE title_staging s SET
    enriched = true,
    runtime_minutes = coalesce(s.runtime_minutes, e.runtime_minutes),
    genres = coalesce(s.genres, e.genres),
    content_rating = coalesce(e.content_rating, s.content_rating),
    plot = coalesce(e.plot, s.plot),
    languages = coalesce(e.languages, s.languages),
    countries = coalesce(e.countries, s.countries),
    directors = coalesce(e.directors, s.directors),
    writers = coalesce(e.writers, s.writers),
    actors = coalesce(e.actors, s.actors),
    awards = coalesce(e.awards, s.awards),
    poster_url = coalesce(e.poster_url, s.poster_url),
    box_office = coalesce(e.box_office, s.box_office),
    production = coalesce(e.production, s.production),
    total_seasons = CASE WHEN s.type = ANY($1::text[]) THEN coalesce(e.total_seasons, s.total_seasons) END
  FROM (SELECT DISTINCT ON (imdb_id) * FROM enrichment_staging ORDER BY imdb_id, seq DESC) e
  WHERE e.imdb_id = s.imdb_id`;

type StagingValue = string | number | boolean | null;

/** Staged text → live column, in the order of the live table's writable columns. */
const LIVE_COLUMNS: ReadonlyArray<[column: string, fromStaging: string]> = [
  ['imdb_id', 's.imdb_id'],
  ['type', 's.type'],
  ['title', 's.title'],
  ['original_title', 's.original_title'],
  ['year', 's.year'],
  ['end_year', 's.end_year'],
  ['runtime_minutes', 's.runtime_minutes'],
  ['genres', listSql('genres')],
  ['content_rating', 's.content_rating'],
  ['plot', 's.plot'],
  ['languages', listSql('languages')],
  ['countries', listSql('countries')],
  ['directors', listSql('directors')],
  ['writers', listSql('writers')],
  ['actors', listSql('actors')],
  ['awards', 's.awards'],
  ['poster_url', 's.poster_url'],
  ['box_office', 's.box_office'],
  ['production', 's.production'],
  ['total_seasons', 's.total_seasons'],
  ['rating_average', 's.rating_average'],
  ['rating_votes', 's.rating_votes'],
  ['enriched', 's.enriched'],
  // The digest of the whole staged row: equal digests mean nothing to rewrite.
  ['source_hash', 'md5(s::text)'],
];

function listSql(column: string): string {
  return `string_to_array(s.${column}, E'\\x1f')`;
}

/** A title's rating from the ratings file, applied to a staged title with the same imdb_id. */
export interface RatingRecord {
  imdbId: string;
  average: number;
  votes: number;
}

/** The fields an enrichment record can fill (OMDb-shaped input, already normalized). */
export type EnrichmentRecord = Pick<TitleRecord, 'imdbId' | EnrichableField>;

type Records<T> = AsyncIterable<T> | Iterable<T>;

/**
 * What a load reads. Titles may carry every field themselves (seeding, tests); the ingest passes
 * ratings and enrichment as separate streams, which are joined to the titles in SQL so that memory
 * stays flat whatever their size. Where an id repeats in ratings or enrichment, the last one wins.
 */
export interface CatalogSource {
  titles: Records<TitleRecord>;
  ratings?: Records<RatingRecord>;
  enrichments?: Records<EnrichmentRecord>;
}

/** What a load does once its inputs are staged. */
export type LoadPhase = 'merge' | 'search-index' | 'statistics';

export interface CatalogLoadOptions {
  /** Reported by /health; derived from the content when absent. */
  catalogVersion?: string | null;
  /** Called as the load enters each phase after staging (the merge transaction starts with 'merge'). */
  onPhase?: (phase: LoadPhase) => void;
  /** Tokens in at least this many titles get pair lists (see DEFAULT_PAIR_MIN_TITLES). */
  pairMinTitles?: number;
}

export interface CatalogLoadResult {
  catalogVersion: string;
  titleCount: number;
  movieCount: number;
  seriesCount: number;
  enrichedCount: number;
  inserted: number;
  updated: number;
  removed: number;
  ingestedAt: Date;
}

/** Raised when a catalog cannot be loaded as given; the live catalog is untouched. */
export class CatalogLoadError extends Error {}

/**
 * Replaces the live catalog with a stream of titles: stage them in a temporary table (COPY on
 * PostgreSQL, batched INSERTs on the embedded database), then merge in one transaction. Readers see
 * the old catalog until the commit and the new one after; ids stay with their imdb_id, removed titles
 * go, and catalog_state changes in the same transaction.
 */
@Injectable()
export class CatalogWriter {
  constructor(private readonly db: Database) {}

  replaceCatalog(source: CatalogSource, options: CatalogLoadOptions = {}): Promise<CatalogLoadResult> {
    return this.db.session(async (session) => {
      const [lock] = await session.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [
        LOAD_LOCK_KEY,
      ]);
      if (!lock?.locked) throw new CatalogLoadError('Another catalog load is running on this database.');
      try {
        // The pool's statement timeout guards API queries; a full-catalog merge may take minutes.
        await session.query('SET statement_timeout = 0');
        // Ranked lists are aggregated from sorted input: no parallel partial aggregates. The sorts
        // of a 1.3M-title load fit in memory on a server (the embedded database keeps its default).
        await session.query('SET max_parallel_workers_per_gather = 0');
        if (this.db.engine === 'postgres') await session.query(`SET work_mem = '${LOAD_WORK_MEM}'`);
        await this.createStagingTables(session);
        await this.stage(session, 'title_staging', TITLE_STAGING_COLUMNS, titleRows(source.titles));
        if (source.ratings) {
          await this.stage(session, 'rating_staging', RATING_STAGING_COLUMNS, ratingRows(source.ratings));
          await session.query(APPLY_RATINGS_SQL);
        }
        if (source.enrichments) {
          await this.stage(
            session,
            'enrichment_staging',
            ENRICHMENT_STAGING_COLUMNS,
            enrichmentRows(source.enrichments),
          );
          await session.query(APPLY_ENRICHMENT_SQL, [SERIES_TYPES]);
        }
        const version = options.catalogVersion ?? (await contentVersion(session));
        const pairMinTitles = options.pairMinTitles ?? DEFAULT_PAIR_MIN_TITLES;
        options.onPhase?.('merge');
        const result = await session.transaction(async (tx) => {
          const merged = await this.merge(tx, version);
          options.onPhase?.('search-index');
          await buildSearchIndex(tx, pairMinTitles);
          return merged;
        });
        options.onPhase?.('statistics');
        await refreshStatistics(session);
        return result;
      } catch (error) {
        throw translateLoadError(error);
      } finally {
        await session.query(DROP_STAGING_SQL).catch(() => undefined);
        for (const setting of ['statement_timeout', 'max_parallel_workers_per_gather', 'work_mem']) {
          await session.query(`RESET ${setting}`).catch(() => undefined);
        }
        await session.query('SELECT pg_advisory_unlock($1)', [LOAD_LOCK_KEY]).catch(() => undefined);
      }
    });
  }

  private async createStagingTables(session: SqlSession): Promise<void> {
    await session.query(DROP_STAGING_SQL);
    await session.query(`CREATE TEMP TABLE title_staging (
      imdb_id text PRIMARY KEY, type text NOT NULL, title text NOT NULL, original_title text,
      year integer, end_year integer, runtime_minutes integer, genres text, content_rating text,
      plot text, languages text, countries text, directors text, writers text, actors text,
      awards text, poster_url text, box_office text, production text, total_seasons integer,
      rating_average numeric(3, 1) NOT NULL, rating_votes integer NOT NULL, enriched boolean NOT NULL,
      search_lexemes text NOT NULL, search_title_key text NOT NULL, search_title_bare_key text NOT NULL,
      search_original_key text, search_original_bare_key text)`);
    await session.query(`CREATE TEMP TABLE rating_staging (
      seq integer NOT NULL, imdb_id text NOT NULL, average numeric(3, 1) NOT NULL, votes integer NOT NULL)`);
    await session.query(`CREATE TEMP TABLE enrichment_staging (
      seq integer NOT NULL, imdb_id text NOT NULL, runtime_minutes integer, genres text, content_rating text,
      plot text, languages text, countries text, directors text, writers text, actors text, awards text,
      poster_url text, box_office text, production text, total_seasons integer)`);
  }

  /** Bulk-loads rows into a staging table: COPY where the engine has it, else multi-row INSERTs. */
  private async stage(
    session: SqlSession,
    table: string,
    columns: readonly string[],
    rows: AsyncIterable<StagingValue[]>,
  ): Promise<void> {
    if (session.copyFrom) {
      await session.copyFrom(
        `COPY ${table} (${columns.join(', ')}) FROM STDIN`,
        Readable.from(copyText(rows)),
      );
      return;
    }
    const rowsPerInsert = Math.floor(MAX_BIND_PARAMETERS / columns.length);
    let batch: StagingValue[][] = [];
    const flush = async () => {
      if (batch.length === 0) return;
      const tuples = batch.map(
        (_, row) => `(${columns.map((_c, col) => `$${row * columns.length + col + 1}`).join(', ')})`,
      );
      await session.query(
        `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${tuples.join(', ')}`,
        batch.flat(),
      );
      batch = [];
    };
    for await (const row of rows) {
      batch.push(row);
      if (batch.length >= rowsPerInsert) await flush();
    }
    await flush();
  }

  private async merge(tx: SqlExecutor, catalogVersion: string): Promise<CatalogLoadResult> {
    const removed = await countAffected(
      tx,
      `DELETE FROM titles t WHERE NOT EXISTS (SELECT 1 FROM title_staging s WHERE s.imdb_id = t.imdb_id)`,
    );
    const columns = LIVE_COLUMNS.map(([column]) => column);
    const values = LIVE_COLUMNS.map(([, fromStaging]) => fromStaging);
    const updated = await countAffected(
      tx,
      `UPDATE titles t SET (${columns.join(', ')}) = (${values.join(', ')})
       FROM title_staging s
       WHERE t.imdb_id = s.imdb_id AND t.source_hash IS DISTINCT FROM md5(s::text)`,
    );
    const inserted = await countAffected(
      tx,
      `INSERT INTO titles (${columns.join(', ')})
       SELECT ${values.join(', ')} FROM title_staging s
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
}

/**
 * A version for an unnamed catalog, derived from its content: SHA-256 over the per-title digests
 * (the same md5(row) the merge compares), in id order. Identical catalogs get identical versions.
 */
async function contentVersion(session: SqlExecutor): Promise<string> {
  const [row] = await session.query<{ version: string }>(
    `SELECT 'sha256-' || left(encode(sha256(convert_to(
       coalesce(string_agg(md5(s::text), '' ORDER BY s.imdb_id), ''), 'UTF8')), 'hex'), 16) AS version
     FROM title_staging s`,
  );
  return row.version;
}

/**
 * Fresh planner statistics for every table the load changed (autovacuum may be off or late), and a
 * visibility map for the rebuilt search tables. Outside the transaction: VACUUM cannot run inside one.
 */
async function refreshStatistics(session: SqlExecutor): Promise<void> {
  await session.query(`VACUUM (ANALYZE) ${SEARCH_TABLES.join(', ')}`);
  await session.query('ANALYZE titles, catalog_state');
}

/** Runs a data-changing statement and counts its rows in the database, not in Node. */
async function countAffected(tx: SqlExecutor, statement: string): Promise<number> {
  const [result] = await tx.query<{ count: number }>(
    `WITH affected AS (${statement} RETURNING 1) SELECT count(*)::int AS count FROM affected`,
  );
  return result?.count ?? 0;
}

async function* titleRows(records: Records<TitleRecord>): AsyncGenerator<StagingValue[]> {
  for await (const record of records) {
    const search = searchDocument(record.title, record.originalTitle);
    yield [
      record.imdbId,
      record.type,
      record.title,
      record.originalTitle,
      record.year,
      record.endYear,
      record.runtimeMinutes,
      joinList(record.genres),
      record.contentRating,
      record.plot,
      joinList(record.languages),
      joinList(record.countries),
      joinList(record.directors),
      joinList(record.writers),
      joinList(record.actors),
      record.awards,
      record.posterUrl,
      record.boxOffice,
      record.production,
      record.totalSeasons,
      record.ratingAverage,
      record.ratingVotes,
      record.enriched,
      search.lexemes.join(' '),
      search.titleKey,
      search.titleBareKey,
      search.originalKey,
      search.originalBareKey,
    ];
  }
}

async function* ratingRows(records: Records<RatingRecord>): AsyncGenerator<StagingValue[]> {
  let seq = 0;
  for await (const rating of records) yield [seq++, rating.imdbId, rating.average, rating.votes];
}

async function* enrichmentRows(records: Records<EnrichmentRecord>): AsyncGenerator<StagingValue[]> {
  let seq = 0;
  for await (const e of records) {
    yield [
      seq++,
      e.imdbId,
      e.runtimeMinutes,
      joinList(e.genres),
      e.contentRating,
      e.plot,
      joinList(e.languages),
      joinList(e.countries),
      joinList(e.directors),
      joinList(e.writers),
      joinList(e.actors),
      e.awards,
      e.posterUrl,
      e.boxOffice,
      e.production,
      e.totalSeasons,
    ];
  }
}

function joinList(values: string[] | null): string | null {
  return values && values.length > 0 ? values.join(LIST_SEPARATOR) : null;
}

/** COPY text format: tab-separated, `\N` for null, backslash escapes for \ tab newline CR. */
async function* copyText(rows: AsyncIterable<StagingValue[]>): AsyncGenerator<string> {
  let chunk = '';
  for await (const row of rows) {
    chunk += row.map(copyField).join('\t') + '\n';
    if (chunk.length >= 64 * 1024) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk) yield chunk;
}

function copyField(value: StagingValue): string {
  if (value === null) return '\\N';
  if (typeof value !== 'string') return String(value);
  return value.replace(/[\\\t\n\r]/g, (c) =>
    c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r',
  );
}

function translateLoadError(error: unknown): unknown {
  const pgError = error as { code?: string; detail?: string; message?: string };
  if (pgError?.code === '23505') {
    return new CatalogLoadError(
      `Duplicate title id in the catalog input: ${pgError.detail ?? pgError.message}`,
    );
  }
  return error;
}
