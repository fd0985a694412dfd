import fc from 'fast-check';
import { LETTER_OR_NUMBER_PATTERN, NFKC_TABLES } from './letter-or-number-pattern';
import { hasLetterOrNumber, normalizeSearchText } from './search-text';

const PATTERN = new RegExp(LETTER_OR_NUMBER_PATTERN, 'u');
const UNASSIGNED = /\p{Cn}/u;
const serviceAccepts = (text: string) => hasLetterOrNumber(normalizeSearchText(text));

describe('LETTER_OR_NUMBER_PATTERN', () => {
  it('agrees with the service on every code point this Node assigns', () => {
    const disagreements: string[] = [];
    for (let codePoint = 0; codePoint <= 0x10ffff; codePoint++) {
      if (codePoint >= 0xd800 && codePoint <= 0xdfff) continue;
      const text = String.fromCodePoint(codePoint);
      if (UNASSIGNED.test(text)) continue;
      if (PATTERN.test(text) !== serviceAccepts(text)) disagreements.push(codePoint.toString(16));
    }
    // Not empty: regenerate NFKC_TABLES for this Node's Unicode (process.versions.unicode).
    expect(disagreements).toEqual([]);
  });

  it('is a regular expression without the u flag too (as linters compile patterns)', () => {
    expect(() => new RegExp(LETTER_OR_NUMBER_PATTERN)).not.toThrow();
  });

  it('agrees with the service on mixed texts', () => {
    const interesting = [
      ...'&- .a1™㈱\u037a\uff9e\u0301\t\u0000',
      ...NFKC_TABLES.LETTERS_AFTER_NFKC.map(([first]) => String.fromCodePoint(first)),
      ...NFKC_TABLES.NO_LETTERS_AFTER_NFKC.map(([first]) => String.fromCodePoint(first)),
    ];
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.constantFrom(...interesting), fc.string({ unit: 'grapheme', maxLength: 2 })), {
          maxLength: 8,
        }),
        (parts) => {
          const text = parts.join('');
          expect(PATTERN.test(text)).toBe(serviceAccepts(text));
        },
      ),
      { numRuns: 2000 },
    );
    for (const [text, accepted] of [
      ['&', false],
      ['a&', true],
      ['™', true],
      ['\u037a', false],
      ['\u037aa', true],
      ['\t', false],
    ] as const) {
      expect([text, PATTERN.test(text)]).toEqual([text, accepted]);
    }
  });
});
