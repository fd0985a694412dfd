import type { SqlExecutor } from '../../database/database';
import { MOVIE_TYPES, TITLE_TYPES } from '../title';
import { RELEVANCE_TIERS, relevanceTierSql } from './relevance';
import { LEADING_ARTICLES } from './search-text';

/**
 * Tokens in at least this many titles get a ranked list per ordered pair. At 1.3M titles: ~30
 * tokens, ~0.5M entries; 5,000 would cost a third more load time (see docs/search.md, Storage).
 */
export const DEFAULT_PAIR_MIN_TITLES = 20_000;

/** The derived tables a load rebuilds, in the order readers lock them (see TitleSearchRepository). */
const DERIVED_TABLES = ['search_lists', 'title_search'] as const;

/**
 * Rebuilds title_search and search_lists inside the load transaction, under temporary names, then
 * swaps them in; readers keep the old tables until the commit. See docs/search.md, Storage.
 */
export async function buildSearchIndex(tx: SqlExecutor, pairMinTitles: number): Promise<void> {
  for (const table of DERIVED_TABLES) await createEmpty(tx, table);
  await fillTitleSearch(tx);
  await copyIndexes(tx, 'title_search');
  await fillSearchLists(tx, pairMinTitles);
  await copyIndexes(tx, 'search_lists');
  for (const table of DERIVED_TABLES) await swap(tx, table);
  await tx.query(`UPDATE catalog_state SET search_pair_min_titles = $1 WHERE id = 1`, [pairMinTitles]);
}

/** The tables a load changes, for the statistics pass after the commit. */
export const SEARCH_TABLES: readonly string[] = DERIVED_TABLES;

function next(table: string): string {
  return `${table}_next`;
}

async function createEmpty(tx: SqlExecutor, table: string): Promise<void> {
  await tx.query(`DROP TABLE IF EXISTS ${next(table)}`);
  await tx.query(`CREATE TABLE ${next(table)} (LIKE ${table} INCLUDING DEFAULTS INCLUDING STORAGE)`);
}

/** One narrow row per title; vote_rank and list_rank come from one sort. */
async function fillTitleSearch(tx: SqlExecutor): Promise<void> {
  await tx.query(
    `INSERT INTO ${next('title_search')} (id, type, year, votes, vote_rank, family, list_rank, lexemes,
       title_key, title_bare_key, original_key, original_bare_key, word_sets)
     SELECT id, type, year, votes, vote_rank, family,
            CASE WHEN family = 'movies' THEN movies_so_far ELSE vote_rank - movies_so_far END,
            lexemes, title_key, title_bare_key, original_key, original_bare_key, word_sets
     FROM (
       SELECT t.id, s.type, s.year, s.rating_votes AS votes,
              CASE WHEN s.type = ANY($1::text[]) THEN 'movies' ELSE 'series' END AS family,
              row_number() OVER w AS vote_rank,
              count(*) FILTER (WHERE s.type = ANY($1::text[])) OVER w AS movies_so_far,
              string_to_array(s.search_lexemes, ' ') AS lexemes,
              s.search_title_key AS title_key, s.search_title_bare_key AS title_bare_key,
              s.search_original_key AS original_key, s.search_original_bare_key AS original_bare_key,
              string_to_array(s.search_word_sets, E'\\x1f') AS word_sets
       FROM title_staging s JOIN titles t ON t.imdb_id = s.imdb_id
       WINDOW w AS (ORDER BY s.rating_votes DESC, t.id ROWS UNBOUNDED PRECEDING)
     ) ranked`,
    [MOVIE_TYPES],
  );
}

/**
 * Every key's ids in relevance order. Entries are written in vote_rank order and aggregated one
 * tier at a time by a hash aggregate, which keeps input order: no sort of millions of entries.
 */
async function fillSearchLists(tx: SqlExecutor, pairMinTitles: number): Promise<void> {
  await tx.query('DROP TABLE IF EXISTS search_frequent_tokens, search_entries');
  await tx.query(
    `CREATE TEMP TABLE search_frequent_tokens ON COMMIT DROP AS
     SELECT token FROM ${next('title_search')}, unnest(lexemes) AS token
     GROUP BY token HAVING count(*) >= $1`,
    [pairMinTitles],
  );
  const pairKey = `(a.token || ' ' || b.token)`;
  const pair = {
    key: pairKey,
    bareKey: `(CASE WHEN a.token = ANY($1::text[]) THEN b.token ELSE ${pairKey} END)`,
    // Its word set is one of its two orders (the tokens differ).
    wordSets: [pairKey, `(b.token || ' ' || a.token)`],
  };
  // A single token is its own key, article-less key and word set.
  const token = { key: 'x.token', bareKey: 'x.token', wordSets: ['x.token'] };
  const byVotes = `(SELECT * FROM ${next('title_search')} ORDER BY vote_rank) s`;
  await tx.query(
    `CREATE TEMP TABLE search_entries ON COMMIT DROP AS
     SELECT x.token COLLATE "C" AS key, s.id, s.type, s.year,
            ${relevanceTierSql('s', token, { keyIsOwnToken: true })} AS tier
     FROM ${byVotes} CROSS JOIN LATERAL unnest(s.lexemes) AS x(token)
     UNION ALL
     SELECT ${pairKey} COLLATE "C", s.id, s.type, s.year, ${relevanceTierSql('s', pair)}
     FROM ${byVotes}
     CROSS JOIN LATERAL (
       SELECT array_agg(token) AS tokens FROM unnest(s.lexemes) AS token
       WHERE token IN (SELECT token FROM search_frequent_tokens)
     ) f
     CROSS JOIN LATERAL unnest(f.tokens) AS a(token)
     CROSS JOIN LATERAL unnest(f.tokens) AS b(token)
     WHERE a.token <> b.token`,
    [LEADING_ARTICLES],
  );
  const typeLists = TITLE_TYPES.map((type) => rankedIds(`type = '${type}'`)).join(', ');
  const columns = `key, year, total, ids, ${TITLE_TYPES.join(', ')}`;
  // A sorted group aggregate would not keep the input order: hash aggregation only.
  await tx.query('SET LOCAL enable_sort = off');
  await tx.query(
    `INSERT INTO ${next('search_lists')} (${columns})
     SELECT key, 0, count(*), ${rankedIds()}, ${typeLists} FROM search_entries GROUP BY key`,
  );
  // Per year, the whole list only: a type and a year together rank that (smaller) list.
  await tx.query(
    `INSERT INTO ${next('search_lists')} (key, year, total, ids)
     SELECT key, year, count(*), ${rankedIds()}
     FROM search_entries WHERE year IS NOT NULL GROUP BY key, year`,
  );
  await tx.query('SET LOCAL enable_sort = on');
}

const TIERS_STRONGEST_FIRST = Object.values(RELEVANCE_TIERS).sort((a, b) => b - a);

/** A group's entry ids (those meeting `condition`), strongest tier first, each tier in input order. */
function rankedIds(condition?: string): string {
  return TIERS_STRONGEST_FIRST.map(
    (tier) => `array_agg(id) FILTER (WHERE tier = ${tier}${condition ? ` AND ${condition}` : ''})`,
  ).join(' || ');
}

/**
 * The live table's indexes (written once, in the migrations), recreated on the new table after it
 * is filled (a bulk build is far cheaper than maintaining them row by row).
 */
async function copyIndexes(tx: SqlExecutor, table: string): Promise<void> {
  const indexes = await tx.query<{ name: string; definition: string }>(
    `SELECT indexname AS name, indexdef AS definition FROM pg_indexes
     WHERE schemaname = current_schema() AND tablename = $1`,
    [table],
  );
  for (const { name, definition } of indexes) {
    await tx.query(
      definition
        .replace(`INDEX ${name} ON `, `INDEX ${next(name)} ON `)
        .replace(new RegExp(` ON ((?:\\S+\\.)?)${table} USING `), ` ON $1${next(table)} USING `),
    );
  }
}

/** Drops the live table and renames the new one (and its indexes) into its place. */
async function swap(tx: SqlExecutor, table: string): Promise<void> {
  const indexes = await tx.query<{ name: string }>(
    `SELECT indexname AS name FROM pg_indexes WHERE schemaname = current_schema() AND tablename = $1`,
    [table],
  );
  await tx.query(`DROP TABLE ${table}`);
  await tx.query(`ALTER TABLE ${next(table)} RENAME TO ${table}`);
  for (const { name } of indexes) await tx.query(`ALTER INDEX ${next(name)} RENAME TO ${name}`);
}
