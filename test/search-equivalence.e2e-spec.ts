import fc from 'fast-check';
import { RELEVANCE_TIERS, relevanceTierSql } from '../src/catalog/search/relevance';
import {
  RANKED_LIST_READS_IN_FLIGHT,
  type SearchResult,
} from '../src/catalog/search/title-search.repository';
import type { SearchFilters } from '../src/catalog/search/search-filters';
import { TitleSearchRepository } from '../src/catalog/search/title-search.repository';
import { type SearchQuery, searchQuery, searchTokens } from '../src/catalog/search/search-text';
import { SearchDatabase } from '../src/database/search-database';
import { TITLE_TYPES, type TitleRecord } from '../src/catalog/title';
import { TitleRepository } from '../src/catalog/title.repository';
import { type TestApp, createTestApp } from './support/test-app';
import { titleRecord } from './support/titles';

/**
 * Every fast path (precomputed single-token and pair lists, candidate ranking) returns exactly what
 * the plain query returns — rows, order and totals — for random queries, filters and pages, on
 * generated catalogs with many ties, before and after a re-ingest that changes frequencies. Queries
 * derived from the catalog's own titles (as typed, without or with a leading article, words in
 * another order, a word repeated) are checked too, and every relevance tier must occur among the
 * titles these queries rank, so no tier goes unchecked.
 */
const WORDS = [
  'the',
  'of',
  'a',
  'la',
  'man',
  'love',
  'night',
  'star',
  'wars',
  'king',
  'day',
  'x',
  'men',
  'dune',
];
const YEARS = [1999, 2000, 2001];
/** Low enough that the generated catalogs have frequent tokens and pair lists. */
const PAIR_MIN_TITLES = 12;

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Words skewed towards the start of WORDS, so a few are frequent and most are not. */
function catalog(seed: number, size: number, idBase: number): TitleRecord[] {
  const random = mulberry32(seed);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() ** 2 * items.length)];
  const phrase = () => Array.from({ length: 1 + Math.floor(random() * 4) }, () => pick(WORDS)).join(' ');
  return Array.from({ length: size }, (_, i) => {
    const name = phrase();
    const original = random() < 0.2 ? null : random() < 0.6 ? name : phrase();
    return titleRecord({
      imdbId: `tt${idBase + i}`,
      title: name,
      originalTitle: original,
      type: TITLE_TYPES[Math.floor(random() * TITLE_TYPES.length)],
      year: random() < 0.15 ? null : YEARS[Math.floor(random() * YEARS.length)],
      ratingVotes: [0, 10, 10, 100, 1000][Math.floor(random() * 5)],
    });
  });
}

/** Queries of `minWords` to 4 words (3 or more: candidates intersected with further lists). */
const queryArbitrary = (minWords: number) =>
  fc.record({
    words: fc.array(fc.oneof(fc.constantFrom(...WORDS), fc.constant('nomatch')), {
      minLength: minWords,
      maxLength: 4,
    }),
    type: fc.option(fc.constantFrom(...TITLE_TYPES), { nil: undefined }),
    year: fc.option(fc.constantFrom(...YEARS), { nil: undefined }),
    limit: fc.integer({ min: 1, max: 20 }),
    page: fc.integer({ min: 1, max: 12 }),
  });

/**
 * Queries typed from titles: each title's name as is, without its first word (an article left
 * out), with "the" before it, its words reversed, and its first word twice.
 */
function derivedQueries(titles: readonly TitleRecord[]): string[] {
  const queries = new Set<string>();
  for (const record of titles.slice(0, 60)) {
    const words = searchTokens(record.title);
    if (words.length === 0) continue;
    queries.add(words.join(' '));
    if (words.length > 1) queries.add(words.slice(1).join(' '));
    queries.add(`the ${words.join(' ')}`);
    queries.add([...words].reverse().join(' '));
    queries.add(`${words[0]} ${words[0]}`);
  }
  return [...queries];
}

describe('search fast paths equal the plain query', () => {
  let t: TestApp;
  let search: TitleSearchRepository;
  /** The tiers the checked queries gave some matching title. */
  const tiersSeen = new Set<number>();

  beforeAll(async () => {
    t = await createTestApp();
    search = t.app.get(TitleSearchRepository);
  });
  afterAll(() => t.close());

  /** The distinct tiers of a query's matches (the definition, for the coverage check only). */
  const tiersOf = async (query: SearchQuery): Promise<number[]> => {
    const rows = await t.app.get(SearchDatabase).query<{ tier: number }>(
      `SELECT DISTINCT ${relevanceTierSql('s', { key: '$1', bareKey: '$2', wordSets: ['$4'] })} AS tier
       FROM title_search s WHERE s.lexemes @> $3::text[]`,
      [query.key, query.bareKey, [...new Set(query.tokens)], query.wordSet],
    );
    return rows.map((row) => row.tier);
  };

  const checkDerivedQueries = async (titles: readonly TitleRecord[]) => {
    const filters: SearchFilters[] = [{}, { type: 'movie' }, { year: 2000 }];
    for (const [i, text] of derivedQueries(titles).entries()) {
      const query = searchQuery(text);
      const slice = { limit: 1 + (i % 20), offset: i % 3 };
      const fast = await search.search(query, filters[i % 3], slice);
      const plain = await search.searchPlain(query, filters[i % 3], slice);
      expect({ text, total: fast.total, ids: fast.rows.map((row) => row.imdb_id) }).toEqual({
        text,
        total: plain.total,
        ids: plain.rows.map((row) => row.imdb_id),
      });
      for (const tier of await tiersOf(query)) tiersSeen.add(tier);
    }
    expect([...tiersSeen].sort()).toEqual(Object.values(RELEVANCE_TIERS).sort());
  };

  const checkQueries = (seed: number, minWords = 1) =>
    fc.assert(
      fc.asyncProperty(queryArbitrary(minWords), async ({ words, type, year, limit, page }) => {
        const query = searchQuery(words.join(' '));
        const filters: SearchFilters = { type, year };
        const slice = { limit, offset: (page - 1) * limit };
        const fast = await search.search(query, filters, slice);
        const plain = await search.searchPlain(query, filters, slice);
        expect(fast.total).toBe(plain.total);
        expect(fast.rows.map((row) => row.imdb_id)).toEqual(plain.rows.map((row) => row.imdb_id));
      }),
      { numRuns: 150, seed },
    );

  /**
   * Searches of one precomputed list asked at once share statements: the first
   * RANKED_LIST_READS_IN_FLIGHT run alone, the rest go together in one more, and each still gets
   * exactly its own page and total, empty pages among them.
   */
  const checkConcurrentListSearches = async () => {
    const filters: SearchFilters[] = [{}, { type: 'movie' }, { year: 2000 }, { type: 'tv_series' }];
    // A word no title holds, and a page past the end of its list: each is one row of nulls.
    const words = [...WORDS.slice(0, 10), 'nomatch', 'man'];
    const asked = words.map((word, i) => ({
      query: searchQuery(word),
      filters: filters[i % filters.length],
      slice: { limit: 1 + (i % 5), offset: i === words.length - 1 ? 10_000 : i % 4 },
    }));
    expect(asked.every(({ query }) => query.tokens.length === 1)).toBe(true);
    const statements = jest.spyOn(t.app.get(SearchDatabase), 'query');
    let together: SearchResult[];
    try {
      together = await Promise.all(
        asked.map(({ query, filters, slice }) => search.search(query, filters, slice)),
      );
      expect(statements).toHaveBeenCalledTimes(RANKED_LIST_READS_IN_FLIGHT + 1);
    } finally {
      statements.mockRestore();
    }
    for (const [i, { query, filters, slice }] of asked.entries()) {
      const plain = await search.searchPlain(query, filters, slice);
      expect({ i, total: together[i].total, ids: together[i].rows.map((row) => row.imdb_id) }).toEqual({
        i,
        total: plain.total,
        ids: plain.rows.map((row) => row.imdb_id),
      });
      expect(together[i].version).not.toBeNull();
    }
  };

  const checkLists = async () => {
    const titles = t.app.get(TitleRepository);
    for (const family of ['movies', 'series'] as const) {
      const all = (await titles.listFamily(family, { limit: 100_000, offset: 0 })).rows;
      const byVotes = [...all].sort((a, b) => b.rating_votes - a.rating_votes || a.id - b.id);
      expect(all.map((row) => row.id)).toEqual(byVotes.map((row) => row.id));
      const page = await titles.listFamily(family, { limit: 7, offset: 14 });
      expect(page.rows.map((row) => row.id)).toEqual(byVotes.slice(14, 21).map((row) => row.id));
      expect(page.total).toBe(all.length);
    }
  };

  it('on a generated catalog', async () => {
    await t.writer.replaceCatalog({ titles: catalog(1, 400, 1_000_000) }, { pairMinTitles: PAIR_MIN_TITLES });
    await checkDerivedQueries(catalog(1, 400, 1_000_000));
    await checkQueries(11);
    await checkQueries(13, 3);
    await checkConcurrentListSearches();
    await checkLists();
  });

  it('after a re-ingest that changes titles, votes and token frequencies', async () => {
    const kept = catalog(1, 400, 1_000_000)
      .filter((_, i) => i % 3 !== 0)
      .map((record, i) => ({ ...record, ratingVotes: i % 2 === 0 ? record.ratingVotes : 7 }));
    const added = catalog(2, 250, 2_000_000);
    await t.writer.replaceCatalog({ titles: [...kept, ...added] }, { pairMinTitles: PAIR_MIN_TITLES });
    tiersSeen.clear();
    await checkDerivedQueries([...added, ...kept]);
    await checkQueries(12);
    await checkConcurrentListSearches();
    await checkLists();
  });
});
