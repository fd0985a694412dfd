import { cleanList, cleanText, parseWholeNumber } from './text';

describe('cleanText', () => {
  it('trims surrounding whitespace and keeps inner spaces', () => {
    expect(cleanText('  The Dark Knight  ')).toBe('The Dark Knight');
    expect(cleanText('A  B')).toBe('A  B');
    expect(cleanText('\u00a0Amélie\u00a0')).toBe('Amélie');
  });

  it('removes C0, DEL and C1 control characters anywhere in the text', () => {
    expect(cleanText('A\u0000B\u0007C')).toBe('ABC');
    expect(cleanText('one\ttwo\nthree\rfour')).toBe('one two three four');
    expect(cleanText('list\u001fseparator')).toBe('listseparator');
    expect(cleanText('del\u007f and c1\u0085\u009f')).toBe('del and c1');
    expect(cleanText('\u0001 padded \u0002')).toBe('padded');
  });

  it('keeps quotes, punctuation and non-ASCII text as they are', () => {
    expect(cleanText('"Weird" Al: The Story')).toBe('"Weird" Al: The Story');
    expect(cleanText("It's a Wonderful Life")).toBe("It's a Wonderful Life");
    expect(cleanText('千と千尋の神隠し')).toBe('千と千尋の神隠し');
    expect(cleanText('Léon 🎬')).toBe('Léon 🎬');
  });

  it.each(['', '   ', '\t', '\n\r', '\u0000\u001f', ' \u007f '])('gives null for %j', (value) => {
    expect(cleanText(value)).toBeNull();
  });
});

describe('cleanList', () => {
  it('splits on commas and trims each item', () => {
    expect(cleanList('Drama')).toEqual(['Drama']);
    expect(cleanList('Action,Crime,Drama')).toEqual(['Action', 'Crime', 'Drama']);
    expect(cleanList(' Christian Bale ,  Heath Ledger,Aaron Eckhart ')).toEqual([
      'Christian Bale',
      'Heath Ledger',
      'Aaron Eckhart',
    ]);
  });

  it('drops empty items and items made only of control characters', () => {
    expect(cleanList('Drama,,Crime,')).toEqual(['Drama', 'Crime']);
    expect(cleanList(', Drama , \u001f ,\t')).toEqual(['Drama']);
  });

  it('removes control characters inside items', () => {
    expect(cleanList('Dra\u001fma, Cri\u0000me')).toEqual(['Drama', 'Crime']);
  });

  it('removes repeated items, keeping the first occurrence in order', () => {
    expect(cleanList('Drama, Crime, Drama, Action, Crime')).toEqual(['Drama', 'Crime', 'Action']);
    expect(cleanList('Drama ,Drama')).toEqual(['Drama']);
  });

  it.each(['', ' ', ',', ' , , ', '\u0000,\u001f'])('gives null, never an empty list, for %j', (value) => {
    expect(cleanList(value)).toBeNull();
  });
});

describe('parseWholeNumber', () => {
  it('reads whole decimal numbers within the inclusive range', () => {
    expect(parseWholeNumber('0', 0, 10)).toBe(0);
    expect(parseWholeNumber('10', 0, 10)).toBe(10);
    expect(parseWholeNumber('1800', 1800, 2100)).toBe(1800);
    expect(parseWholeNumber('2100', 1800, 2100)).toBe(2100);
    expect(parseWholeNumber('1994', 1800, 2100)).toBe(1994);
  });

  it('reads leading zeros as decimal', () => {
    expect(parseWholeNumber('007', 0, 10)).toBe(7);
    expect(parseWholeNumber('010', 0, 100)).toBe(10);
  });

  it('refuses numbers outside the range', () => {
    expect(parseWholeNumber('1799', 1800, 2100)).toBeUndefined();
    expect(parseWholeNumber('2101', 1800, 2100)).toBeUndefined();
    expect(parseWholeNumber('0', 1, 10)).toBeUndefined();
    expect(parseWholeNumber('99999999999999999999', 0, 2_000_000_000)).toBeUndefined();
  });

  it.each([
    '',
    ' 1',
    '1 ',
    '+1',
    '-1',
    '1.0',
    '1.5',
    '1e3',
    '0x10',
    '1_000',
    '1,000',
    'NaN',
    'Infinity',
    '１',
    'abc',
  ])('refuses %j', (value) => {
    expect(parseWholeNumber(value, -10, 10_000)).toBeUndefined();
  });
});
