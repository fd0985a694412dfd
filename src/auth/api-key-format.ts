import { hash, randomBytes } from 'node:crypto';

export const API_KEY_PREFIX = 'mov_live_';
const API_KEY_FORMAT = /^mov_live_[A-Za-z0-9_-]{43,}$/;
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
  const match = /^bearer +(\S+)$/i.exec(header.trim());
  if (!match || !isWellFormedApiKey(match[1])) return { kind: 'invalid' };
  return { kind: 'key', key: match[1] };
}
