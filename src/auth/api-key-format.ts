import { hash, randomBytes } from 'node:crypto';

export const API_KEY_PREFIX = 'mov_live_';
/** The prefix and a base64url secret of at least 43 characters (32 bytes). */
const API_KEY_PATTERN = `${API_KEY_PREFIX}[A-Za-z0-9_-]{43,}`;
const API_KEY_FORMAT = new RegExp(`^${API_KEY_PATTERN}$`);
/**
 * `Bearer` in any case, spaces, a well-formed key, and around them only what `trim` would take
 * (`\s` is the same set): one match per request, not a scheme match and then a key test.
 */
const BEARER_WITH_KEY = new RegExp(`^\\s*[Bb][Ee][Aa][Rr][Ee][Rr] +(${API_KEY_PATTERN})\\s*$`);
/** How much of a key `keys:list` shows: the fixed prefix and four characters of the secret. */
const DISPLAY_PREFIX_LENGTH = API_KEY_PREFIX.length + 4;

/** A new key: `mov_live_` and 32 random bytes in base64url (43 characters). */
export function generateApiKey(): string {
  return API_KEY_PREFIX + randomBytes(32).toString('base64url');
}

export function isWellFormedApiKey(key: string): boolean {
  return API_KEY_FORMAT.test(key);
}

/**
 * Keys carry 256 random bits, so an unsalted SHA-256 is a safe, indexable one-way hash. Once per
 * request: the one-shot `hash` costs a third of a `createHash` object.
 */
export function hashApiKey(key: string): string {
  return hash('sha256', key, 'hex');
}

export function displayPrefix(key: string): string {
  return key.slice(0, DISPLAY_PREFIX_LENGTH);
}

export type BearerCredentials = { kind: 'missing' } | { kind: 'invalid' } | { kind: 'key'; key: string };

/**
 * Reads the Authorization header: absent or empty is "missing"; anything but `Bearer <well-formed
 * key>` (scheme case-insensitive) is "invalid" and needs no database lookup.
 */
export function readBearerCredentials(header: string | string[] | undefined): BearerCredentials {
  if (header === undefined || header === '' || (Array.isArray(header) && header.length === 0)) {
    return { kind: 'missing' };
  }
  if (Array.isArray(header)) return { kind: 'invalid' };
  const match = BEARER_WITH_KEY.exec(header);
  return match ? { kind: 'key', key: match[1] } : { kind: 'invalid' };
}
