import { createHash } from 'node:crypto';
import {
  API_KEY_PREFIX,
  displayPrefix,
  generateApiKey,
  hashApiKey,
  isWellFormedApiKey,
  readBearerCredentials,
} from './api-key-format';

const SECRET = 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-AbCd1';
const KEY = `mov_live_${SECRET}`;

describe('generateApiKey', () => {
  it('gives the prefix and 43 base64url characters (32 random bytes)', () => {
    const key = generateApiKey();
    expect(key).toMatch(/^mov_live_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(key.slice(API_KEY_PREFIX.length), 'base64url')).toHaveLength(32);
    expect(isWellFormedApiKey(key)).toBe(true);
  });

  it('gives a different key every time', () => {
    const keys = new Set(Array.from({ length: 200 }, () => generateApiKey()));
    expect(keys.size).toBe(200);
  });
});

describe('isWellFormedApiKey', () => {
  it('accepts the prefix and at least 43 characters of the base64url alphabet', () => {
    expect(SECRET).toHaveLength(43);
    expect(isWellFormedApiKey(KEY)).toBe(true);
    expect(isWellFormedApiKey(`mov_live_${'-'.repeat(43)}`)).toBe(true);
    expect(isWellFormedApiKey(`mov_live_${'_'.repeat(43)}`)).toBe(true);
    expect(isWellFormedApiKey(`mov_live_${'a'.repeat(44)}`)).toBe(true);
    expect(isWellFormedApiKey(`mov_live_${'Z9'.repeat(100)}`)).toBe(true);
  });

  it('refuses a secret shorter than 43 characters', () => {
    expect(isWellFormedApiKey(`mov_live_${'a'.repeat(42)}`)).toBe(false);
    expect(isWellFormedApiKey('mov_live_')).toBe(false);
    expect(isWellFormedApiKey('')).toBe(false);
  });

  it.each([
    ['another prefix', `mov_test_${SECRET}`],
    ['an upper-case prefix', `MOV_LIVE_${SECRET}`],
    ['no prefix', SECRET + 'xxxxxxxxx'],
    ['text before the prefix', `xmov_live_${SECRET}`],
  ])('refuses %s', (_case, key) => {
    expect(isWellFormedApiKey(key)).toBe(false);
  });

  it.each(['!', '+', '/', '=', ' ', '.', 'é', '\n', '\t', '\0'])(
    'refuses the character %j anywhere in the secret',
    (char) => {
      expect(isWellFormedApiKey(`mov_live_${'a'.repeat(43)}${char}`)).toBe(false);
      expect(isWellFormedApiKey(`mov_live_${char}${'a'.repeat(43)}`)).toBe(false);
      expect(isWellFormedApiKey(`mov_live_${'a'.repeat(20)}${char}${'a'.repeat(23)}`)).toBe(false);
    },
  );
});

describe('hashApiKey', () => {
  it('is the hex SHA-256 of the complete key, the same every time', () => {
    const hash = hashApiKey(KEY);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).toBe(createHash('sha256').update(KEY, 'utf8').digest('hex'));
    expect(hashApiKey(KEY)).toBe(hash);
  });

  it('differs between keys, even by one character', () => {
    const other = KEY.slice(0, -1) + 'e';
    expect(hashApiKey(other)).not.toBe(hashApiKey(KEY));
    expect(hashApiKey(generateApiKey())).not.toBe(hashApiKey(generateApiKey()));
  });

  it('hashes the known empty-string vector correctly', () => {
    expect(hashApiKey('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });
});

describe('displayPrefix', () => {
  it('is the fixed prefix and the first four characters of the secret', () => {
    expect(displayPrefix(KEY)).toBe('mov_live_AbCd');
    expect(displayPrefix(KEY)).toHaveLength(API_KEY_PREFIX.length + 4);
    const key = generateApiKey();
    expect(displayPrefix(key)).toBe(key.slice(0, 13));
  });

  it('never reveals more than four characters of the secret', () => {
    expect(KEY.startsWith(displayPrefix(KEY))).toBe(true);
    expect(displayPrefix(KEY)).not.toContain(SECRET.slice(0, 5));
  });
});

describe('readBearerCredentials', () => {
  it('reports an absent or empty header as missing', () => {
    expect(readBearerCredentials(undefined)).toEqual({ kind: 'missing' });
    expect(readBearerCredentials('')).toEqual({ kind: 'missing' });
  });

  it.each([
    ['the scheme alone', 'Bearer'],
    ['the scheme and a space', 'Bearer '],
    ['the scheme and spaces', 'Bearer    '],
    ['another scheme', 'Basic dXNlcjpwYXNz'],
    ['another scheme with a well-formed key', `Basic ${KEY}`],
    ['a key without a scheme', KEY],
    ['a scheme glued to the key', `Bearer${KEY}`],
    ['a short key', 'Bearer mov_live_short'],
    ['another prefix', `Bearer mov_test_${SECRET}`],
    ['a forbidden character', `Bearer mov_live_${'a'.repeat(42)}!`],
    ['two keys', `Bearer ${KEY} ${KEY}`],
    ['a key and trailing text', `Bearer ${KEY} extra`],
    ['a comma-joined pair of keys', `Bearer ${KEY}, Bearer ${KEY}`],
  ])('reports %s as invalid', (_case, header) => {
    expect(readBearerCredentials(header)).toEqual({ kind: 'invalid' });
  });

  it('reports a repeated (array) header as invalid, even with a good key', () => {
    expect(readBearerCredentials([`Bearer ${KEY}`])).toEqual({ kind: 'invalid' });
    expect(readBearerCredentials([`Bearer ${KEY}`, `Bearer ${KEY}`])).toEqual({ kind: 'invalid' });
  });

  it.each([
    ['the canonical form', `Bearer ${KEY}`],
    ['a lower-case scheme', `bearer ${KEY}`],
    ['an upper-case scheme', `BEARER ${KEY}`],
    ['a mixed-case scheme', `bEaReR ${KEY}`],
    ['several spaces after the scheme', `Bearer    ${KEY}`],
    ['surrounding whitespace', `  \tBearer ${KEY} \t `],
  ])('reads the key from %s', (_case, header) => {
    expect(readBearerCredentials(header)).toEqual({ kind: 'key', key: KEY });
  });

  it('reads a freshly generated key unchanged', () => {
    const key = generateApiKey();
    expect(readBearerCredentials(`Bearer ${key}`)).toEqual({ kind: 'key', key });
  });
});
