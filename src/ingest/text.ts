/** Control characters never belong in catalog text (and \x1f separates staged list items). */
const CONTROL_CHARACTERS = /\p{Cc}/gu;
const LINE_AND_TAB_CONTROLS = /[\t\n\v\f\r]/g;
const ANY_CONTROL_CHARACTER = /\p{Cc}/u;

/**
 * Trimmed text without control characters: tabs and line breaks become spaces ("a\nb" → "a b"),
 * the others are removed. Empty becomes null.
 */
export function cleanText(value: string): string | null {
  // Most values hold no control character: one test instead of two replacements.
  const text = !ANY_CONTROL_CHARACTER.test(value)
    ? value.trim()
    : value.replace(LINE_AND_TAB_CONTROLS, ' ').replace(CONTROL_CHARACTERS, '').trim();
  return text === '' ? null : text;
}

/** Comma-separated items, each cleaned; no items becomes null (lists are null or non-empty). */
export function cleanList(value: string): string[] | null {
  const items = value
    .split(',')
    .map(cleanText)
    .filter((item): item is string => item !== null);
  return items.length > 0 ? [...new Set(items)] : null;
}

/** A whole decimal number within [min, max], else undefined. */
export function parseWholeNumber(value: string, min: number, max: number): number | undefined {
  if (!/^[0-9]+$/.test(value)) return undefined;
  const number = Number(value);
  return number >= min && number <= max ? number : undefined;
}
