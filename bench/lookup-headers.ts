/** The headers of a cached lookup's 200 before Node adds Content-Length, Date and Connection. */
export const LOOKUP_HEADERS: ReadonlyArray<readonly [string, string]> = [
  ['Cache-Control', 'private, max-age=0, must-revalidate'],
  ['Content-Security-Policy', "default-src 'none';frame-ancestors 'none'"],
  ['Referrer-Policy', 'no-referrer'],
  ['X-Content-Type-Options', 'nosniff'],
  ['X-Request-Id', 'a634570f-fe40-47bf-88c5-eb0dc271d443'],
  ['Vary', 'Authorization'],
  ['X-RateLimit-Limit', '1000000'],
  ['X-RateLimit-Remaining', '999999'],
  ['RateLimit-Policy', '"minute";q=1000000;w=60, "month";q=1000000000;w=2592000'],
  ['RateLimit', '"minute";r=999999;t=60, "month";r=999999999;t=237424'],
  ['ETag', '"o8_fuq6f9cSS8wbst655B78EIYX"'],
  ['Content-Type', 'application/json; charset=utf-8'],
];
