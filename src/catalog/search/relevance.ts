/**
 * Search relevance: a few text tiers, strongest first, then votes, then id (the contract's order).
 * The one definition, used by the plain query, by every fast path, and by the loader when it
 * precomputes ranked lists (so they are equal by construction; the equivalence test checks it).
 *
 * For a query with key K (its tokens joined by spaces), K' (K without a leading article, see
 * `withoutLeadingArticle`) and word set W (its distinct tokens), a title scores, taking the stronger
 * of its title and original title:
 *   5  its key equals K, with or without its own         "batman" → "Batman" and "The Batman";
 *      leading article                                   "godfather" → "The Godfather"
 *   4  its words, with or without its own leading        "tora" → "Tora! Tora! Tora!";
 *      article, are exactly the words of W (repeated     "new york" → "New York, New York";
 *      or not, in any order)                             "york new" → "New York"
 *   3  its key without a leading article equals K'       "the batman" → "Batman" (original title
 *      (an article the query typed, the title has not)   "The Bat-Man": "the" only elsewhere)
 *   2  K's tokens appear in it in K's order (other        "lord of the rings" → "The Lord of the
 *      words may stand between them), or its              Rings: The Fellowship of the Ring";
 *      article-less key begins with K'                    "the spongebob movie" → "The SpongeBob
 *                                                         SquarePants Movie"; "spirit" → "Ghost
 *                                                         Rider: Spirit of Vengeance"
 *   1  every token occurs somewhere (the match itself)    "star wars empire" → "Star Wars: Episode V -
 *                                                         The Empire Strikes Back"
 * Only the text decides the tier; votes decide inside a tier.
 *
 * Tier 5: a leading article the user did not type does not lower a title ("godfather" means The
 * Godfather, 2.2M votes, more than Godfather, 8k votes: votes decide). A query that types the
 * article ("the batman") has the title with it in tier 5, and a title without it only in tier 3.
 * Tier 4 is just below the exact tier, not in it: a title made only of the query's words is a
 * strong match ("Tora! Tora! Tora!" above every more-voted title that merely holds "tora"), but the
 * title that is exactly what was typed keeps its place ("Tora" first for "tora", "Tora! Tora!
 * Tora!" first for "tora tora tora"), so known-item search by the exact title is not lowered.
 * A phrase at the start of a title and one later in it share a tier on purpose: the quality report
 * on real titles showed that splitting them ranks obscure "Spirit: …" titles above "Ghost Rider:
 * Spirit of Vengeance" or "Toy Story 3". "In order" rather than "contiguous" lets a query that skips
 * a word of a long title ("the spongebob movie") still rank that title above titles that merely
 * hold the words in another order.
 */
export const RELEVANCE_TIERS = {
  exact: 5,
  queryWordsOnly: 4,
  articleLess: 3,
  phrase: 2,
  allTokens: 1,
} as const;

/**
 * The tier of the title_search row `alias` for a query whose key and article-less key are the SQL
 * expressions `key` and `bareKey`, and whose word set (`wordSet` in search-text.ts) is any of the
 * SQL expressions `wordSets` (parameters at query time; columns when the loader ranks lists, where
 * a pair "a b" offers both orders rather than sort as JavaScript does). The row's `word_sets` are
 * its title forms' word sets, written by the loader from `searchDocument`. Tokens hold only
 * letters, numbers and marks, so spaces delimit them unambiguously.
 *
 * `keyIsOwnToken`: the key is one token of the row's own title or original title (the loader's
 * per-token lists). The phrase test then always holds, so it is not evaluated (a second and a
 * half of every 1.3M-title load); the tier is the same.
 */
export function relevanceTierSql(
  alias: string,
  query: { key: string; bareKey: string; wordSets: readonly string[] },
  { keyIsOwnToken = false }: { keyIsOwnToken?: boolean } = {},
): string {
  const { key, bareKey, wordSets } = query;
  const title = `${alias}.title_key`;
  const titleBare = `${alias}.title_bare_key`;
  const original = `${alias}.original_key`;
  const originalBare = `${alias}.original_bare_key`;
  const startsWith = (column: string) => `starts_with(${column} || ' ', ${bareKey} || ' ')`;
  // In order: every token of the key, each as a whole token, left to right, anything between.
  // The column's tokens are padded to " a  b  c " and the key becomes the pattern "% a % b % c %"
  // (tokens hold only letters, numbers and marks, never LIKE's "%", "_" or "\").
  const inOrder = (column: string) =>
    `(' ' || replace(${column}, ' ', '  ') || ' ') LIKE ('% ' || replace(${key}, ' ', ' % ') || ' %')`;
  const phrase = keyIsOwnToken
    ? 'TRUE'
    : `${inOrder(title)} OR ${inOrder(original)} OR ${startsWith(titleBare)} OR ${startsWith(originalBare)}`;
  const t = RELEVANCE_TIERS;
  return `CASE
    WHEN ${title} = ${key} OR ${original} = ${key} OR ${titleBare} = ${key} OR ${originalBare} = ${key}
      THEN ${t.exact}
    WHEN ${wordSets.map((wordSet) => `${wordSet} = ANY(${alias}.word_sets)`).join(' OR ')}
      THEN ${t.queryWordsOnly}
    WHEN ${titleBare} = ${bareKey} OR ${originalBare} = ${bareKey} THEN ${t.articleLess}
    WHEN ${phrase} THEN ${t.phrase}
    ELSE ${t.allTokens} END`;
}
