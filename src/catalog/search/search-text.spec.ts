import {
  foldToken,
  hasLetterOrNumber,
  normalizeSearchText,
  searchDocument,
  searchQuery,
  searchTokens,
  withoutLeadingArticle,
} from './search-text';

describe('search text rules', () => {
  it('applies NFKC, then removes control characters literally', () => {
    expect(normalizeSearchText('ﬁlm Ｕｐ')).toBe('film Up');
    expect(normalizeSearchText('a\tb\u0000c\u007f')).toBe('abc');
  });

  it('requires a letter or number after normalization', () => {
    expect(hasLetterOrNumber(normalizeSearchText('!!! ...'))).toBe(false);
    expect(hasLetterOrNumber(normalizeSearchText('\t\n'))).toBe(false);
    expect(hasLetterOrNumber(normalizeSearchText('٣'))).toBe(true);
    expect(hasLetterOrNumber(normalizeSearchText('é'))).toBe(true);
  });

  it('splits on everything that is not a letter or number, keeping combining marks inside', () => {
    expect(searchTokens("Don't Look Up: 2021-edition")).toEqual([
      'don',
      't',
      'look',
      'up',
      '2021',
      'edition',
    ]);
    expect(searchTokens('e\u0301te\u0301')).toEqual(['ete']);
    expect(searchTokens('नमस्ते दुनिया')).toHaveLength(2);
    expect(searchTokens('千と千尋の神隠し')).toEqual(['千と千尋の神隠し']);
  });

  it('folds case fully and removes accents', () => {
    expect(foldToken('Amélie')).toBe('amelie');
    expect(foldToken('STRASSE')).toBe(foldToken('Straße'));
    expect(foldToken('Ørsted')).toBe('orsted');
    expect(foldToken('Łódź')).toBe('lodz');
    expect(foldToken('İstanbul')).toBe('istanbul');
    expect(foldToken('ΟΔΟΣ')).toBe(foldToken('οδοσ'));
  });

  it('builds a document from title and original title, with exact-match keys', () => {
    const doc = searchDocument('Amélie', "Le fabuleux destin d'Amélie Poulain");
    expect(doc.lexemes.sort()).toEqual(['amelie', 'd', 'destin', 'fabuleux', 'le', 'poulain']);
    expect(doc.titleKey).toBe('amelie');
    expect(doc.titleBareKey).toBe('amelie');
    expect(doc.originalKey).toBe('le fabuleux destin d amelie poulain');
    expect(doc.originalBareKey).toBe('fabuleux destin d amelie poulain');
    expect(doc.wordSets).toEqual([
      'amelie',
      'amelie d destin fabuleux le poulain',
      'amelie d destin fabuleux poulain',
    ]);
    expect(searchDocument('Up', null).originalKey).toBeNull();
    expect(searchDocument('!!!', null)).toEqual({
      lexemes: [],
      titleKey: '',
      titleBareKey: '',
      originalKey: null,
      originalBareKey: null,
      wordSets: [],
    });
  });

  it('uses the first 20 tokens of a query', () => {
    const words = Array.from({ length: 25 }, (_, i) => `w${i}`);
    const query = searchQuery(words.join(' '));
    expect(query.tokens).toEqual(words.slice(0, 20));
    expect(query.key).toBe(words.slice(0, 20).join(' '));
  });

  it('sets aside one leading article, only when something follows it', () => {
    expect(withoutLeadingArticle(['the', 'batman'])).toEqual(['batman']);
    expect(withoutLeadingArticle(['l', 'avventura'])).toEqual(['avventura']);
    expect(withoutLeadingArticle(['the', 'the', 'end'])).toEqual(['the', 'end']);
    expect(withoutLeadingArticle(['the'])).toEqual(['the']);
    expect(withoutLeadingArticle(['batman', 'the'])).toEqual(['batman', 'the']);
    expect(searchQuery('The Lord of the Rings')).toEqual({
      tokens: ['the', 'lord', 'of', 'the', 'rings'],
      key: 'the lord of the rings',
      bareKey: 'lord of the rings',
      wordSet: 'lord of rings the',
    });
  });

  it('gives a title and a query made of the same words, in any order or number, one word set', () => {
    expect(searchQuery('tora').wordSet).toBe('tora');
    expect(searchDocument('Tora! Tora! Tora!', null).wordSets).toEqual(['tora']);
    expect(searchQuery('york new').wordSet).toBe('new york');
    expect(searchDocument('New York, New York', 'New York, New York').wordSets).toEqual(['new york']);
    expect(searchDocument('The Batman', null).wordSets).toEqual(['batman the', 'batman']);
  });
});
