import { REDACTED, redactKeys } from './key-redaction';

const SECRET = 'Ab3_-'.repeat(9);
const KEY = `mov_live_${SECRET}`;
/** Every character percent-escaped, in the given case of hex digits. */
const escapeAll = (text: string, upper: boolean) =>
  [...text]
    .map((char) => `%${char.charCodeAt(0).toString(16).padStart(2, '0')}`)
    .map((escape) => (upper ? escape.toUpperCase() : escape))
    .join('');

describe('redactKeys', () => {
  it.each([
    ['as sent', KEY],
    ['escaped underscores, lower-case hex', KEY.replace(/_/g, '%5f')],
    ['escaped underscores, upper-case hex', KEY.replace(/_/g, '%5F')],
    ['escaped letters', `%6Dov%5flive_${SECRET}`],
    ['every character escaped, lower-case hex', escapeAll(KEY, false)],
    ['every character escaped, upper-case hex', escapeAll(KEY, true)],
    ['mixed-case escapes', `%6dO%76_%4cIvE%5F${escapeAll(SECRET.slice(0, 5), true)}${SECRET.slice(5)}`],
    ['escaped twice', `%256Dov%255Flive_${SECRET}`],
    ['in capitals', KEY.toUpperCase()],
  ])('redacts a key %s, wherever it stands in a line', (_name, key) => {
    for (const line of [key, `{"req":{"id":"${key}"}}`, `/v1/search?q=a+${key}+b&page=1`, `x=${key}/y`]) {
      const redacted = redactKeys(line);
      expect(redacted).toContain(REDACTED);
      expect(decodeFully(redacted)).not.toContain(SECRET.slice(0, 12));
      expect(decodeFully(redacted)).not.toMatch(/mov_live_/i);
    }
  });

  it('keeps what follows the key', () => {
    expect(redactKeys(`/v1/search?q=${KEY}+the+office&page=2`)).toBe(
      `/v1/search?q=${REDACTED}+the+office&page=2`,
    );
    expect(redactKeys(`{"id":"${KEY}","url":"/health"}`)).toBe(`{"id":"${REDACTED}","url":"/health"}`);
  });

  it.each([
    '/v1/search?q=the+office&page=2',
    '{"msg":"request completed","movie":"live"}',
    'mov_liv_x',
    '%6Dov',
  ])('leaves %s as it is', (line) => {
    expect(redactKeys(line)).toBe(line);
  });
});

/** Percent-escapes decoded until none is left (`+` as a space), as a reader of the log might. */
function decodeFully(text: string): string {
  let decoded = text;
  for (let previous = ''; previous !== decoded;) {
    previous = decoded;
    decoded = decoded
      .replace(/\+/g, ' ')
      .replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  }
  return decoded;
}
