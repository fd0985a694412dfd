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
