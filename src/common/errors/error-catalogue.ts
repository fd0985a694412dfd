/** Every error code of the contract; the catalogue below is the one place that maps them. */
export type ErrorCode =
  | 'VALIDATION_ERROR'
  | 'MISSING_API_KEY'
  | 'INVALID_API_KEY'
  | 'API_KEY_DISABLED'
  | 'TITLE_NOT_FOUND'
  | 'ROUTE_NOT_FOUND'
  | 'RATE_LIMITED'
  | 'MONTHLY_QUOTA_EXCEEDED'
  | 'INTERNAL_ERROR';

interface ErrorDefinition {
  status: number;
  message: string;
  /** Whether it can come after the limits guard, and so carry its headers (401, 403, unknown routes cannot). */
  keepsRateLimitHeaders: boolean;
}

export const ERROR_CATALOGUE: Readonly<Record<ErrorCode, ErrorDefinition>> = {
  VALIDATION_ERROR: {
    status: 400,
    message: 'The request parameters are invalid.',
    keepsRateLimitHeaders: true,
  },
  MISSING_API_KEY: {
    status: 401,
    message:
      'An API key is required. Send it in the Authorization header as `Authorization: Bearer <key>`; keys in the query string are not read.',
    keepsRateLimitHeaders: false,
  },
  INVALID_API_KEY: {
    status: 401,
    message:
      'The supplied API key is invalid. Send a key issued to you, complete, as `Authorization: Bearer mov_live_…`.',
    keepsRateLimitHeaders: false,
  },
  API_KEY_DISABLED: {
    status: 403,
    message: "The API key has been disabled. Ask the key's issuer to enable it, or use another key.",
    keepsRateLimitHeaders: false,
  },
  TITLE_NOT_FOUND: {
    status: 404,
    message: 'The requested title was not found.',
    keepsRateLimitHeaders: true,
  },
  ROUTE_NOT_FOUND: {
    status: 404,
    message: 'The requested route was not found.',
    keepsRateLimitHeaders: false,
  },
  RATE_LIMITED: {
    status: 429,
    message:
      "Too many requests: the key's per-minute limit is used up. Retry after the number of seconds in Retry-After.",
    keepsRateLimitHeaders: true,
  },
  MONTHLY_QUOTA_EXCEEDED: {
    status: 429,
    message:
      'The monthly quota has been exceeded. It resets at 00:00 UTC on the first of next month (see Retry-After).',
    keepsRateLimitHeaders: true,
  },
  INTERNAL_ERROR: { status: 500, message: 'An internal error occurred.', keepsRateLimitHeaders: true },
};
