import { REDACTED, redactKeys } from './key-redaction';

/** Query parameters whose values are credentials wherever they appear (compared case-insensitively). */
const CREDENTIAL_PARAMETER =
  /^(api[-_]?key|key|token|access[-_]?token|auth|authorization|bearer|password|passwd|secret|client[-_]?secret|signature|sig|session|jwt)$/i;
export { REDACTED };

/**
 * The URL as logged: credential-like query values and key-shaped text (any escaping) are replaced; the
 * rest stays as received, for debugging.
 */
export function redactUrl(url: string): string {
  const queryStart = url.indexOf('?');
  const path = queryStart === -1 ? url : url.slice(0, queryStart);
  const query =
    queryStart === -1
      ? ''
      : '?' +
        url
          .slice(queryStart + 1)
          .split('&')
          .map(redactParameter)
          .join('&');
  return redactKeys(path + query);
}

function redactParameter(pair: string): string {
  const separator = pair.indexOf('=');
  if (separator === -1) return pair;
  return CREDENTIAL_PARAMETER.test(parameterName(pair.slice(0, separator)))
    ? `${pair.slice(0, separator)}=${REDACTED}`
    : pair;
}

function parameterName(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' ')).trim();
  } catch {
    return raw;
  }
}

/** The longest URL an access line carries (characters); a longer one is cut, its length logged beside. */
export const LOGGED_URL_MAX = 1024;

/**
 * The URL as logged, at most `LOGGED_URL_MAX` characters: redacted whole first, then cut, so a key
 * that runs past the cut is already `[REDACTED]` and no prefix of it can be left (a cut `[REDACTED]`
 * shows no key).
 */
export function loggedUrl(url: string): string {
  const redacted = redactUrl(url);
  if (redacted.length <= LOGGED_URL_MAX) return redacted;
  // Never half a surrogate pair at the cut.
  const end = isHighSurrogate(redacted.charCodeAt(LOGGED_URL_MAX - 1)) ? LOGGED_URL_MAX - 1 : LOGGED_URL_MAX;
  return redacted.slice(0, end);
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
