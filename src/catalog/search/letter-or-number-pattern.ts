/**
 * `q`'s letter-or-number rule as a regex over the raw text. NFKC makes letters of some symbols
 * ("™") and marks of some letters, hence the tables (Unicode 17; the unit test flags a drift).
 */
type CodePointRange = readonly [first: number, last: number];

/** Code points that are neither letter nor number but hold one after NFKC. */
const LETTERS_AFTER_NFKC: readonly CodePointRange[] = [
  [0x20a8, 0x20a8],
  [0x2100, 0x2101],
  [0x2103, 0x2103],
  [0x2105, 0x2106],
  [0x2109, 0x2109],
  [0x2116, 0x2116],
  [0x2120, 0x2122],
  [0x213b, 0x213b],
  [0x249c, 0x24e9],
  [0x2e9f, 0x2e9f],
  [0x2ef3, 0x2ef3],
  [0x2f00, 0x2fd5],
  [0x3196, 0x319f],
  [0x3200, 0x321e],
  [0x322a, 0x3247],
  [0x3250, 0x3250],
  [0x3260, 0x327e],
  [0x328a, 0x32b0],
  [0x32c0, 0x33ff],
  [0xfdfc, 0xfdfc],
  [0x1ccd6, 0x1ccef],
  [0x1f110, 0x1f12e],
  [0x1f130, 0x1f14f],
  [0x1f16a, 0x1f16c],
  [0x1f190, 0x1f190],
  [0x1f200, 0x1f202],
  [0x1f210, 0x1f23b],
  [0x1f240, 0x1f248],
  [0x1f250, 0x1f251],
];

/** Letters that hold no letter or number after NFKC. */
const NO_LETTERS_AFTER_NFKC: readonly CodePointRange[] = [
  [0x037a, 0x037a],
  [0xfc5e, 0xfc63],
  [0xfe70, 0xfe70],
  [0xfe72, 0xfe72],
  [0xfe74, 0xfe74],
  [0xfe76, 0xfe76],
  [0xfe78, 0xfe78],
  [0xfe7a, 0xfe7a],
  [0xfe7c, 0xfe7c],
  [0xfe7e, 0xfe7e],
  [0xff9e, 0xff9f],
];

/**
 * Means the same with and without the `u` flag (some validators drop it): astral code points as
 * escaped surrogate pairs, one by one, never inside a class.
 */
const BMP_END = 0xffff;
const escapedUnit = (unit: number) => `\\u${unit.toString(16).padStart(4, '0')}`;
/** `\uXXXX` per UTF-16 code unit: one for a BMP code point, a surrogate pair above it. */
const escaped = (codePoint: number) => {
  const text = String.fromCodePoint(codePoint);
  return Array.from({ length: text.length }, (_, i) => escapedUnit(text.charCodeAt(i))).join('');
};
const classOf = (ranges: readonly CodePointRange[]) =>
  ranges
    .filter(([, last]) => last <= BMP_END)
    .map(([first, last]) => (first === last ? escaped(first) : `${escaped(first)}-${escaped(last)}`))
    .join('');
const astralOf = (ranges: readonly CodePointRange[]) =>
  ranges
    .filter(([first]) => first > BMP_END)
    .flatMap(([first, last]) => Array.from({ length: last - first + 1 }, (_, i) => escaped(first + i)));

/** Unanchored: the text matches when it holds one such code point anywhere. */
export const LETTER_OR_NUMBER_PATTERN = `(?![${classOf(NO_LETTERS_AFTER_NFKC)}])(?:${[
  `[\\p{L}\\p{N}${classOf(LETTERS_AFTER_NFKC)}]`,
  ...astralOf(LETTERS_AFTER_NFKC),
].join('|')})`;

export const NFKC_TABLES = { LETTERS_AFTER_NFKC, NO_LETTERS_AFTER_NFKC };
