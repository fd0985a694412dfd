/**
 * Relevance tiers (then votes, then id): the one definition for queries and precomputed lists, so
 * they agree by construction. Rules and why: see docs/search.md, Relevance.
 */
export const RELEVANCE_TIERS = {
  exact: 5,
  queryWordsOnly: 4,
  articleLess: 3,
  phrase: 2,
  allTokens: 1,
} as const;

/**
 * SQL for the tier of row `alias`; query fields are SQL expressions. `keyIsOwnToken`: the phrase
 * test always holds, so it is skipped (about 1.5 s of a 1.3M-title load).
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
  // Padded " a  b  c " LIKE "% a % b % c %": whole tokens in order. Tokens never hold LIKE's % _ \.
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
