/** The contract's search text rules, shared by queries and stored documents so both fold alike. */

export const MAX_QUERY_TOKENS = 20;
export const MAX_QUERY_LENGTH = 100;

const CONTROL_CHARACTERS = /\p{Cc}/gu;
const TOKEN = /[\p{L}\p{N}][\p{L}\p{N}\p{M}]*/gu;
const LETTER_OR_NUMBER = /[\p{L}\p{N}]/u;
/** Combining diacritical marks (the blocks accent folding removes after NFD). */
// eslint-disable-next-line no-misleading-character-class -- ranges of combining marks, on purpose
const DIACRITICS = /[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]/gu;
/** Letters that carry their accent in the base character, folded as `unaccent` does. */
const LETTER_FOLDS: Readonly<Record<string, string>> = {
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ħ: 'h',
  ı: 'i',
  ŧ: 't',
  ð: 'd',
  þ: 'th',
  æ: 'ae',
  œ: 'oe',
  ς: 'σ',
};
const FOLDED_LETTERS = new RegExp(`[${Object.keys(LETTER_FOLDS).join('')}]`, 'g');
const ASCII_WORD = /^[A-Za-z0-9]*$/;
/** PostgreSQL refuses lexemes of 2 KB or more; longer "words" are not searchable. */
const MAX_LEXEME_BYTES = 1024;

/** NFKC, then control characters removed (literally: "a\tb" becomes "ab"). */
export function normalizeSearchText(raw: string): string {
  return raw.normalize('NFKC').replace(CONTROL_CHARACTERS, '');
}

export function hasLetterOrNumber(normalized: string): boolean {
  return LETTER_OR_NUMBER.test(normalized);
}

/** Case folding (full: "ß" → "ss") and accent folding ("Amélie" → "amelie") of one token. */
export function foldToken(token: string): string {
  // ASCII letters and digits fold by lower-casing alone (no full case mapping, no marks).
  if (ASCII_WORD.test(token)) return token.toLowerCase();
  return token
    .toUpperCase()
    .toLowerCase()
    .normalize('NFD')
    .replace(DIACRITICS, '')
    .replace(FOLDED_LETTERS, (letter) => LETTER_FOLDS[letter])
    .normalize('NFC');
}

/** The folded tokens of a text, in order, repeats kept. */
export function searchTokens(text: string): string[] {
  return Array.from(normalizeSearchText(text).matchAll(TOKEN), ([token]) => foldToken(token));
}

/** Leading articles set aside for relevance (docs/search.md, Relevance); only a first token, only when another follows. */
export const LEADING_ARTICLES: readonly string[] = [
  'the',
  'a',
  'an',
  'le',
  'la',
  'les',
  'l',
  'el',
  'los',
  'las',
  'il',
  'lo',
  'gli',
  'der',
  'die',
  'das',
  'un',
  'une',
];
const ARTICLES = new Set(LEADING_ARTICLES);

/** The tokens without a leading article ("the batman" → "batman"; "the" alone stays "the"). */
export function withoutLeadingArticle(tokens: readonly string[]): readonly string[] {
  return tokens.length > 1 && ARTICLES.has(tokens[0]) ? tokens.slice(1) : tokens;
}

/** Distinct tokens, sorted, space-joined; titles and queries must both use this to agree. */
export function wordSet(tokens: readonly string[]): string {
  return [...new Set(tokens)].sort().join(' ');
}

/** What a title stores for search: its lexemes and the token keys the relevance tiers compare. */
export interface SearchDocument {
  lexemes: string[];
  /** The title's tokens joined by single spaces. */
  titleKey: string;
  /** The same without a leading article (equal to titleKey when there is none). */
  titleBareKey: string;
  originalKey: string | null;
  originalBareKey: string | null;
  /** Word sets of title and original, with and without the leading article, each once. */
  wordSets: string[];
}

export function searchDocument(title: string, originalTitle: string | null): SearchDocument {
  const titleTokens = searchTokens(title);
  const originalTokens = originalTitle === null ? null : searchTokens(originalTitle);
  const lexemes = new Set(
    [...titleTokens, ...(originalTokens ?? [])].filter(
      (token) => Buffer.byteLength(token) <= MAX_LEXEME_BYTES,
    ),
  );
  const forms = [titleTokens, withoutLeadingArticle(titleTokens)];
  if (originalTokens !== null) forms.push(originalTokens, withoutLeadingArticle(originalTokens));
  const wordSets = new Set(forms.map(wordSet));
  wordSets.delete('');
  return {
    lexemes: [...lexemes],
    titleKey: titleTokens.join(' '),
    titleBareKey: withoutLeadingArticle(titleTokens).join(' '),
    originalKey: originalTokens === null ? null : originalTokens.join(' '),
    originalBareKey: originalTokens === null ? null : withoutLeadingArticle(originalTokens).join(' '),
    wordSets: [...wordSets],
  };
}

/** A validated search: the tokens used (at most 20) and the keys the relevance tiers compare. */
export interface SearchQuery {
  tokens: string[];
  /** The tokens joined by single spaces. */
  key: string;
  /** The same without a leading article. */
  bareKey: string;
  /** Its distinct tokens (`wordSet`). */
  wordSet: string;
}

export function searchQuery(rawText: string): SearchQuery {
  const tokens = searchTokens(rawText).slice(0, MAX_QUERY_TOKENS);
  return {
    tokens,
    key: tokens.join(' '),
    bareKey: withoutLeadingArticle(tokens).join(' '),
    wordSet: wordSet(tokens),
  };
}
