/** A response header as it is written: name and value. */
type HeaderPair = readonly [name: string, value: string];

/** The cache policy of an answer nothing else gives one (an authenticated `/v1` answer has its own). */
export const DEFAULT_CACHE_CONTROL = 'no-store';

/**
 * Every answer's headers (OWASP REST), in writing order; browser-page headers say nothing for JSON.
 * The CSP has no optional space after `;`, as Helmet wrote it (docs/operations.md, Security headers).
 */
export const EVERY_ANSWER_HEADERS: readonly HeaderPair[] = [
  ['Cache-Control', DEFAULT_CACHE_CONTROL],
  ['Content-Security-Policy', "default-src 'none';frame-ancestors 'none'"],
  ['Referrer-Policy', 'no-referrer'],
  ['X-Content-Type-Options', 'nosniff'],
];

/**
 * One year, subdomains included, sent only on answers to HTTPS requests: a browser honours HSTS
 * received over HTTPS only, and the header never claims what the connection is not.
 */
export const STRICT_TRANSPORT_SECURITY: HeaderPair = [
  'Strict-Transport-Security',
  'max-age=31536000; includeSubDomains',
];

/**
 * The same headers as raw header lines, for answers written to the socket before Express sees a
 * request (`answerClientError`), over plain HTTP and over TLS.
 */
export const SECURITY_HEADER_LINES = {
  http: headerLines(EVERY_ANSWER_HEADERS),
  https: headerLines([...EVERY_ANSWER_HEADERS, STRICT_TRANSPORT_SECURITY]),
} as const;

function headerLines(headers: readonly HeaderPair[]): string {
  return headers.map(([name, value]) => `${name}: ${value}\r\n`).join('');
}
