import { PGlite } from '@electric-sql/pglite';
import { RELEVANCE_TIERS, relevanceTierSql } from './relevance';
import { searchDocument, searchQuery } from './search-text';

/**
 * The tier rules case by case, evaluated by the SQL itself (on PGlite) for one title and one query
 * at a time: the title's keys and word sets as the loader stores them, the query's as a search sends them.
 */
const { exact, queryWordsOnly, articleLess, phrase, allTokens } = RELEVANCE_TIERS;

const CASES: Array<[query: string, title: string, original: string | null, tier: number]> = [
  ['batman', 'Batman', null, exact],
  ['batman', 'The Batman', null, exact],
  ['godfather', 'The Godfather', null, exact],
  ['godfather', 'Il Padrino', 'The Godfather', exact],
  ['lord of the rings', 'The Lord of the Rings', null, exact],
  ['a team', 'The A-Team', null, exact],
  ['the batman', 'The Batman', null, exact],
  // An article the query typed and the title has not (it holds "the" elsewhere).
  ['the batman', 'Batman', 'The Bat-Man', articleLess],
  ['the lord of the rings', 'Lord of the Rings', null, queryWordsOnly],
  ['tora', 'Tora! Tora! Tora!', null, queryWordsOnly],
  ['tora tora', 'Tora! Tora! Tora!', null, queryWordsOnly],
  ['tora tora tora', 'Tora! Tora! Tora!', null, exact],
  ['tora tora', 'Tora', null, queryWordsOnly],
  ['tora', 'The Tora Tora', null, queryWordsOnly],
  ['new york', 'New York, New York', null, queryWordsOnly],
  ['york new', 'New York, New York', null, queryWordsOnly],
  ['york new', 'New York', null, queryWordsOnly],
  ['york new', 'Nueva York', 'New York', queryWordsOnly],
  // Every word of the query, but only across the two titles: no one title is made of them.
  ['new york', 'York', 'New', allTokens],
  ['new york', 'New York Stories', null, phrase],
  ['new york', 'Gangs of New York', null, phrase],
  ['tora', 'Tora and the Dragon', null, phrase],
  ['tora tora', 'Tora and the Dragon', null, allTokens],
  ['the spongebob movie', 'SpongeBob: The Movie Special', null, allTokens],
];

describe('relevance tiers (the SQL, case by case)', () => {
  let db: PGlite;

  beforeAll(async () => {
    db = await PGlite.create();
    await db.exec(`CREATE TABLE title_search (id integer, title_key text, title_bare_key text,
      original_key text, original_bare_key text, word_sets text[])`);
    for (const [i, [, title, original]] of CASES.entries()) {
      const doc = searchDocument(title, original);
      await db.query(
        `INSERT INTO title_search (id, title_key, title_bare_key, original_key, original_bare_key, word_sets)
         VALUES ($1, $2, $3, $4, $5, $6)`,
        [i, doc.titleKey, doc.titleBareKey, doc.originalKey, doc.originalBareKey, doc.wordSets],
      );
    }
  }, 120_000);
  afterAll(() => db.close());

  it.each(CASES.map((c, i) => [...c, i] as const))(
    '"%s" → "%s" (original %s): tier %i',
    async (text, _title, _original, tier, id) => {
      const query = searchQuery(text);
      const tierSql = relevanceTierSql('s', { key: '$1', bareKey: '$2', wordSets: ['$3'] });
      const { rows } = await db.query<{ tier: number }>(
        `SELECT ${tierSql} AS tier FROM title_search s WHERE id = $4`,
        [query.key, query.bareKey, query.wordSet, id],
      );
      expect(rows).toEqual([{ tier }]);
    },
  );
});
