import { Injectable } from '@nestjs/common';
import type { Slice } from '../../common/envelope';
import { SearchDatabase } from '../../database/search-database';
import { CATALOG_VERSION, catalogStateFrom, versionOf } from '../../database/versioned-read';
import { BatchedReads } from '../batched-reads';
import { TITLE_TYPES, type TitleType } from '../title';
import { type TitleRow, titleSelectSql } from '../title-columns';
import { relevanceTierSql } from './relevance';
import type { SearchFilters } from './search-filters';
import type { SearchQuery } from './search-text';

export interface SearchResult {
  rows: TitleRow[];
  total: number;
  /** The catalog version all statements read; null when they disagree (a load committed between) or no catalog. */
  version: string | null;
}

/** Every statement reads the catalog version (and the pair threshold) with its data. */
const STATE_ROW = catalogStateFrom('search_pair_min_titles');

/** One version for a search whose statements read `versions`, or null when they disagree. */
function commonVersion(...versions: Array<string | null>): string | null {
  return versions.every((version) => version === versions[0]) ? versions[0] : null;
}

/** The parameters every ranking statement starts with ($1 … $6) and the query's keys among them. */
function rankingParams(query: SearchQuery, slice: Slice): unknown[] {
  return [query.key, query.bareKey, [...new Set(query.tokens)], slice.limit, slice.offset, query.wordSet];
}
const QUERY_KEYS = { key: '$1', bareKey: '$2', wordSets: ['$6'] };

/** search_lists rows for "every year" hold year 0 (start years are 1800 to 2100). */
const ANY_YEAR = 0;

/**
 * Intersect a further list when it is at most this many times the candidates: ~0.1 µs per id
 * against ~8 µs per title_search check (EXPLAIN ANALYZE, 1.3M titles).
 */
export const FILTER_LIST_RATIO = 40;

/** The search_lists column holding the list for a type filter (a whitelisted identifier). */
function listColumn(type: TitleType | undefined): string {
  return type ?? 'ids';
}

/** A page of one precomputed list: the list under `key` and `year`, the type's own when `type` is given. */
interface RankedListPage {
  key: string;
  year: number;
  type: TitleType | null;
  slice: Slice;
}

/**
 * Any number of list pages in one statement; a missing list or page past the end is one row of
 * nulls. $1 … $5: keys, years, types (null: whole list), offsets, limits.
 */
const RANKED_LIST_PAGES_SQL = `SELECT wanted.position::int AS wanted_position,
    coalesce(CASE WHEN wanted.type IS NULL THEN l.total ELSE cardinality(l.list) END, 0)::int AS total,
    ${CATALOG_VERSION}, ${titleSelectSql('t')}
  ${STATE_ROW}
  CROSS JOIN unnest($1::text[], $2::int[], $3::text[], $4::int[], $5::int[])
    WITH ORDINALITY AS wanted(key, year, type, skip, take, position)
  LEFT JOIN LATERAL (
    SELECT total, CASE wanted.type
      ${TITLE_TYPES.map((type) => `WHEN '${type}' THEN ${listColumn(type)}`).join(' ')}
      ELSE ${listColumn(undefined)} END AS list
    FROM search_lists WHERE key = wanted.key AND year = wanted.year
  ) l ON true
  LEFT JOIN LATERAL unnest(l.list[wanted.skip + 1 : wanted.skip + wanted.take]) WITH ORDINALITY AS p(id, pos) ON true
  LEFT JOIN titles t ON t.id = p.id
  ORDER BY wanted.position, p.pos`;

/** Precomputed-list reads share statements like lookups (`BatchedReads`); see docs/search.md, Query paths. */
export const RANKED_LIST_READS_IN_FLIGHT = 2;
export const RANKED_LIST_READ_BATCH = 16;
export const RANKED_LIST_READ_MAX_WAIT_MS = 20;

/**
 * Titles holding every query token, in relevance order. Three paths to the same answer (a list
 * slice, candidates from the smallest lists, `searchPlain`): see docs/search.md, Query paths.
 */
@Injectable()
export class TitleSearchRepository {
  private readonly rankedListPages = new BatchedReads<RankedListPage, SearchResult>(
    (pages) => this.readRankedListPages(pages),
    RANKED_LIST_READS_IN_FLIGHT,
    RANKED_LIST_READ_BATCH,
    RANKED_LIST_READ_MAX_WAIT_MS,
  );

  constructor(private readonly db: SearchDatabase) {}

  async search(query: SearchQuery, filters: SearchFilters, slice: Slice): Promise<SearchResult> {
    const distinct = [...new Set(query.tokens)];
    if (query.tokens.length === 1) return this.exactKey(query, query.key, filters, slice);

    const plan = await this.listSizes(distinct);
    const none = { rows: [], total: 0, version: plan.version };
    if (distinct.some((token) => plan.totals.get(token) === undefined)) return none;
    const frequent = (token: string) =>
      plan.pairMinTitles !== null && plan.totals.get(token)! >= plan.pairMinTitles;
    const withPlan = async (result: Promise<SearchResult>): Promise<SearchResult> => {
      const found = await result;
      return { ...found, version: commonVersion(plan.version, found.version) };
    };
    if (query.tokens.length === 2 && distinct.length === 2 && distinct.every(frequent)) {
      return withPlan(this.exactKey(query, query.key, filters, slice));
    }
    let candidates = distinct[0];
    for (const key of plan.totals.keys()) {
      if (plan.totals.get(key)! < plan.totals.get(candidates)!) candidates = key;
    }
    // Two frequent tokens always have a pair list when some title holds both.
    for (const [a, b] of pairs(distinct.filter(frequent))) {
      if (!plan.totals.has(`${a} ${b}`)) return none;
    }
    return withPlan(
      this.rankCandidates(
        query,
        candidates,
        filters,
        slice,
        coveringLists(distinct, candidates, plan.totals),
      ),
    );
  }

  /** The definition: every title_search row holding all tokens, ranked in SQL. */
  async searchPlain(query: SearchQuery, filters: SearchFilters, slice: Slice): Promise<SearchResult> {
    const params = rankingParams(query, slice);
    let where = 's.lexemes @> $3::text[]';
    if (filters.type !== undefined) where += ` AND s.type = $${params.push(filters.type)}`;
    if (filters.year !== undefined) where += ` AND s.year = $${params.push(filters.year)}`;
    return this.page(
      `WITH matches AS (
         SELECT s.id, ${relevanceTierSql('s', QUERY_KEYS)} AS tier, s.votes
         FROM title_search s WHERE ${where}
       )`,
      (m) => `${m}tier DESC, ${m}votes DESC, ${m}id`,
      params,
    );
  }

  /** The query's own precomputed list; per-year lists have no per-type lists beside them. */
  private exactKey(query: SearchQuery, key: string, filters: SearchFilters, slice: Slice) {
    return filters.type !== undefined && filters.year !== undefined
      ? this.rankCandidates(query, key, filters, slice)
      : this.rankedList(key, filters, slice);
  }

  /** A precomputed list: the page is a slice of it, the total its length. One statement, maybe shared. */
  private rankedList(key: string, filters: SearchFilters, slice: Slice): Promise<SearchResult> {
    return this.rankedListPages.read({
      key,
      year: filters.year ?? ANY_YEAR,
      type: filters.type ?? null,
      slice,
    });
  }

  private async readRankedListPages(pages: RankedListPage[]): Promise<SearchResult[]> {
    const rows = await this.db.query<TitleRow & PageRowExtras & { wanted_position: number }>(
      RANKED_LIST_PAGES_SQL,
      [
        pages.map((page) => page.key),
        pages.map((page) => page.year),
        pages.map((page) => page.type),
        pages.map((page) => page.slice.offset),
        pages.map((page) => page.slice.limit),
      ],
    );
    const rowsByPage = pages.map((): Array<TitleRow & PageRowExtras> => []);
    for (const row of rows) rowsByPage[row.wanted_position - 1]?.push(row);
    return rowsByPage.map(pageOf);
  }

  /** The sizes of the whole-catalog lists of the tokens and their pairs, and the pair threshold. */
  private async listSizes(
    tokens: string[],
  ): Promise<{ totals: Map<string, number>; pairMinTitles: number | null; version: string | null }> {
    const keys = [...tokens, ...pairs(tokens).map(([a, b]) => `${a} ${b}`)];
    const rows = await this.db.query<{
      key: string | null;
      total: number | null;
      pair_min: number | null;
      catalog_version: string | null;
    }>(
      `SELECT l.key, l.total, state.search_pair_min_titles AS pair_min, ${CATALOG_VERSION}
       ${STATE_ROW}
       LEFT JOIN search_lists l ON l.key = ANY($1::text[]) AND l.year = ${ANY_YEAR}`,
      [keys],
    );
    const totals = new Map<string, number>();
    for (const row of rows) if (row.key !== null && row.total !== null) totals.set(row.key, row.total);
    return { totals, pairMinTitles: rows[0]?.pair_min ?? null, version: versionOf(rows) };
  }

  /**
   * Ranks one list's titles holding every token. `intersect` only narrows the candidates first
   * (every match is in each list), so fewer title_search rows are read; the result is the same.
   */
  private rankCandidates(
    query: SearchQuery,
    candidates: string,
    filters: SearchFilters,
    slice: Slice,
    intersect: readonly string[] = [],
  ): Promise<SearchResult> {
    const byYear = filters.year !== undefined;
    const params = [...rankingParams(query, slice), candidates, filters.year ?? ANY_YEAR];
    // A year's list has no per-type lists beside it: the type is checked on title_search.
    const typeCheck =
      byYear && filters.type !== undefined ? ` AND s.type = $${params.push(filters.type)}` : '';
    // The same year's list, and the same type's when no year is given: each holds every match.
    const column = byYear ? 'ids' : listColumn(filters.type);
    const list = (key: string) =>
      `SELECT unnest(${column}) AS id FROM search_lists WHERE key = ${key} AND year = $8`;
    // INTERSECT, not a join: never a nested loop over two arrays, whatever the planner guesses.
    const ids = [list('$7'), ...intersect.map((key) => list(`$${params.push(key)}`))].join(' INTERSECT ');
    return this.page(
      // search_lists before title_search: the loader's lock order. `id = ANY(array)` is one index
      // scan, about twice as fast per title as a probe per id (1.3M titles).
      `WITH candidates AS MATERIALIZED (SELECT ARRAY(${ids}) AS ids),
       matches AS (
         SELECT s.id, ${relevanceTierSql('s', QUERY_KEYS)} AS tier, s.vote_rank
         FROM candidates c
         JOIN title_search s ON s.id = ANY(c.ids)
         WHERE s.lexemes @> $3::text[]${typeCheck}
       )`,
      // vote_rank is the title's position by votes descending, then id: the same order.
      (m) => `${m}tier DESC, ${m}vote_rank`,
      params,
    );
  }

  /**
   * The count and one ordered page of a `matches` CTE, with the titles' columns, in one round trip.
   * `order` gives the ORDER BY columns of matches under a prefix; $4 and $5 are limit and offset.
   */
  private async page(
    matchesCte: string,
    order: (prefix: string) => string,
    params: unknown[],
  ): Promise<SearchResult> {
    const rows = await this.db.query<TitleRow & PageRowExtras>(
      `${matchesCte}
       SELECT (SELECT count(*) FROM matches)::int AS total, ${CATALOG_VERSION}, ${titleSelectSql('t')}
       ${STATE_ROW}
       LEFT JOIN LATERAL (SELECT * FROM matches ORDER BY ${order('')} LIMIT $4 OFFSET $5) m ON true
       LEFT JOIN titles t ON t.id = m.id
       ORDER BY ${order('m.')}`,
      params,
    );
    return pageOf(rows);
  }
}

/** What a page statement's rows carry besides the title: the match count and the catalog version. */
interface PageRowExtras {
  total: number;
  catalog_version: string | null;
}

/** A page statement's rows (one row of nulls when the page is empty) as a result with its version. */
function pageOf(rows: Array<TitleRow & PageRowExtras>): SearchResult {
  return {
    rows: rows.filter((row) => row.id !== null),
    total: rows[0]?.total ?? 0,
    version: versionOf(rows),
  };
}

/** For each token `candidates` does not cover, its smallest list within FILTER_LIST_RATIO, if any. */
export function coveringLists(
  tokens: readonly string[],
  candidates: string,
  totals: ReadonlyMap<string, number>,
): string[] {
  const query = new Set(tokens);
  // Only a list whose key's tokens are all query tokens holds every match.
  const usable = [...totals].filter(([key]) => key.split(' ').every((token) => query.has(token)));
  const covered = new Set(candidates.split(' '));
  const limit = totals.get(candidates)! * FILTER_LIST_RATIO;
  const chosen: string[] = [];
  for (const token of tokens) {
    if (covered.has(token)) continue;
    let best: string | undefined;
    for (const [key, total] of usable) {
      if (total > limit || !key.split(' ').includes(token)) continue;
      if (best === undefined || total < totals.get(best)!) best = key;
    }
    if (best === undefined) continue;
    chosen.push(best);
    for (const covers of best.split(' ')) covered.add(covers);
  }
  return chosen;
}

/** Every unordered pair of distinct tokens, each once, in the order given. */
function pairs(tokens: readonly string[]): Array<[string, string]> {
  const result: Array<[string, string]> = [];
  for (let i = 0; i < tokens.length; i++) {
    for (let j = i + 1; j < tokens.length; j++) result.push([tokens[i], tokens[j]]);
  }
  return result;
}
