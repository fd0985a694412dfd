/**
 * Search relevance: a few text tiers, strongest first, then votes, then id (the contract's order).
 * The one definition, used by the plain query, by every fast path, and by the loader when it
 * precomputes ranked lists (so they are equal by construction; the equivalence test checks it).
 *
 * For a query with key K (its tokens joined by spaces) and K' (K without a leading article, see
 * `withoutLeadingArticle`), a title scores, taking the stronger of its title and original title:
 *   5  its key equals K                                    "batman" → "Batman"
 *   4  its key without a leading article equals K'         "batman" → "The Batman"
 *   3  its key, or that key without its article, begins     "lord of the rings" → "The Lord of the
 *      with K (or K') followed by more words                Rings: The Fellowship of the Ring"
 *   2  K appears in it as a contiguous phrase              "empire strikes" → "Star Wars: Episode V -
 *                                                           The Empire Strikes Back"
 *   1  every token occurs somewhere (the match itself)      "star wars empire" → the same title
 * Only the text decides the tier; votes decide inside a tier.
 */
export const RELEVANCE_TIERS = { exact: 5, articleLess: 4, prefix: 3, phrase: 2, allTokens: 1 } as const;

/** The title_search columns a tier reads, for a table alias. */
function keys(alias: string) {
  return {
    title: `${alias}.title_key`,
    titleBare: `${alias}.title_bare_key`,
    original: `${alias}.original_key`,
    originalBare: `${alias}.original_bare_key`,
  };
}

/**
 * The tier of the title_search row `alias` for a query whose key and article-less key are the SQL
 * expressions `key` and `bareKey` (parameters at query time; columns when the loader ranks lists).
 * Tokens hold only letters, numbers and marks, so spaces delimit them unambiguously.
 */
export function relevanceTierSql(alias: string, key: string, bareKey: string): string {
  const k = keys(alias);
  const startsWith = (column: string, prefix: string) => `starts_with(${column} || ' ', ${prefix} || ' ')`;
  const contains = (column: string) => `strpos(' ' || ${column} || ' ', ' ' || ${key} || ' ') > 0`;
  const t = RELEVANCE_TIERS;
  return `CASE
    WHEN ${k.title} = ${key} OR ${k.original} = ${key} THEN ${t.exact}
    WHEN ${k.titleBare} = ${bareKey} OR ${k.originalBare} = ${bareKey} THEN ${t.articleLess}
    WHEN ${startsWith(k.title, key)} OR ${startsWith(k.original, key)}
      OR ${startsWith(k.titleBare, bareKey)} OR ${startsWith(k.originalBare, bareKey)} THEN ${t.prefix}
    WHEN ${contains(k.title)} OR ${contains(k.original)} THEN ${t.phrase}
    ELSE ${t.allTokens} END`;
}
