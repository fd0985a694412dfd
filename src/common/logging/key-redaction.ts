export const REDACTED = '[REDACTED]';

const KEY_PREFIX = 'mov_live_';

/** One character as sent, or percent-escaped (either case of letter and hex, escapes of `%` too). */
function anyEncoding(char: string): string {
  const hex = (c: string) => c.charCodeAt(0).toString(16).padStart(2, '0');
  const variants = new Set([hex(char.toLowerCase()), hex(char.toUpperCase())]);
  return `(?:${char === '_' ? '_' : char}|%(?:25)*(?:${[...variants].join('|')}))`;
}

/**
 * Key-shaped text in any client encoding: `mov_live_` in any case, each character raw or percent-escaped
 * (any times over). Matched as written, so no decoding step is skipped; redacted to the run's end.
 */
const KEY_TEXT = new RegExp(
  `${[...KEY_PREFIX].map(anyEncoding).join('')}(?:[A-Za-z0-9_-]|%(?:25)*[0-9A-Fa-f]{2})*`,
  'gi',
);

/** The text with every key-shaped run replaced by `[REDACTED]`. */
export function redactKeys(text: string): string {
  KEY_TEXT.lastIndex = 0;
  return KEY_TEXT.test(text) ? text.replace(KEY_TEXT, REDACTED) : text;
}
