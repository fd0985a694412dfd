import { type Type, applyDecorators } from '@nestjs/common';
import {
  ApiExtraModels,
  ApiHeader,
  ApiResponse,
  type HeaderObject,
  type LinkObject,
  getSchemaPath,
} from '@nestjs/swagger';
import { RATE_LIMIT_FIELDS, RATE_LIMIT_HEADERS, rateLimitFieldPatterns } from '../limits/rate-limit-headers';
import { LIMITS } from '../limits/limit-table';
import { ERROR_CATALOGUE, type ErrorCode } from '../common/errors/error-catalogue';
import { ACCEPTED_REQUEST_ID, REQUEST_ID_HEADER } from '../common/request-id/request-id';
import { PRIVATE_ANSWER_HEADERS } from '../auth/private-answer-headers';
import {
  DEFAULT_CACHE_CONTROL,
  EVERY_ANSWER_HEADERS,
  STRICT_TRANSPORT_SECURITY,
} from '../server/security-headers';
import { TITLE_LOOKUP_OPERATION_ID } from './operation-ids';
import { ErrorEnvelopeDto } from './error-envelope.dto';
import { ETAG_EXAMPLE, REQUEST_ID_EXAMPLE } from './examples';

/** Whether a route sits behind the API key and the limits (then it answers with rate-limit headers). */
export type RouteAccess = 'public' | 'metered';

/**
 * What the service echoes: the client's X-Request-Id when it is one of these, else a UUID. Only
 * answers carry the pattern: a request's value is never refused (see ApiRequestIdHeader).
 */
const REQUEST_ID_SCHEMA = { type: 'string', pattern: ACCEPTED_REQUEST_ID.source } as const;

const RATE_LIMIT_FIELD_PATTERNS = rateLimitFieldPatterns(LIMITS);
/** `"minute" and "month"`: the limits, named in the table's order. */
const LIMIT_NAMES = LIMITS.map((limit) => `"${limit.name}"`)
  .join(', ')
  .replace(/, ([^,]*)$/, ' and $1');
/** Example values of the limits' headers: a key of 120 requests a minute and 100,000 a month. */
const RATE_LIMIT_EXAMPLES = {
  policy: '"minute";q=120;w=60, "month";q=100000;w=2592000',
  current: '"minute";r=119;t=60, "month";r=99874;t=1296000',
};

/** The headers every answer carries (src/server/security-headers.ts), Cache-Control aside. */
const SECURITY_HEADERS: Record<string, HeaderObject> = Object.fromEntries(
  EVERY_ANSWER_HEADERS.filter(([name]) => name !== 'Cache-Control').map(([name, value]) => [
    name,
    {
      required: true,
      description: 'Sent on every answer, errors included (OWASP REST security headers)',
      schema: { type: 'string', enum: [value] },
      example: value,
    },
  ]),
);

const HEADERS = {
  requestId: {
    required: true,
    description:
      'The client-supplied X-Request-Id when it is 1–128 of [A-Za-z0-9._-], otherwise a generated UUID; ' +
      'also in meta.request_id or error.request_id',
    schema: REQUEST_ID_SCHEMA,
    example: REQUEST_ID_EXAMPLE,
  },
  limit: {
    required: true,
    description: "The key's requests-per-minute policy",
    schema: { type: 'integer', minimum: 1 },
    example: 120,
  },
  remaining: {
    required: true,
    description: 'Best effort: the limit minus 1 on an accepted request, 0 on a 429',
    schema: { type: 'integer', minimum: 0 },
    example: 119,
  },
  rateLimitPolicy: (required: boolean): HeaderObject => ({
    required,
    description:
      `The IETF RateLimit-Policy field (draft-ietf-httpapi-ratelimit-headers): the ${LIMIT_NAMES} ` +
      'policies, q requests per w seconds',
    schema: { type: 'string', pattern: RATE_LIMIT_FIELD_PATTERNS.policy },
    example: RATE_LIMIT_EXAMPLES.policy,
  }),
  rateLimit: (required: boolean): HeaderObject => ({
    required,
    description:
      'The IETF RateLimit field: per policy, r requests remaining (as this replica knows it) and t ' +
      'seconds until the window resets',
    schema: { type: 'string', pattern: RATE_LIMIT_FIELD_PATTERNS.current },
    example: RATE_LIMIT_EXAMPLES.current,
  }),
  privateCacheControl: {
    required: true,
    description: "An answer for one key is no one else's: shared caches keep nothing, clients revalidate",
    schema: { type: 'string', enum: [PRIVATE_ANSWER_HEADERS['Cache-Control']] },
    example: PRIVATE_ANSWER_HEADERS['Cache-Control'],
  },
  noStoreCacheControl: {
    required: true,
    description: 'Not for any cache to keep',
    schema: { type: 'string', enum: [DEFAULT_CACHE_CONTROL] },
    example: DEFAULT_CACHE_CONTROL,
  },
  vary: {
    required: true,
    description: 'Answers differ by key',
    schema: { type: 'string', enum: [PRIVATE_ANSWER_HEADERS.Vary] },
    example: PRIVATE_ANSWER_HEADERS.Vary,
  },
  strictTransportSecurity: {
    required: false,
    description:
      'Only on answers to requests that arrived over HTTPS (the TLS port, or a trusted proxy that sent ' +
      'X-Forwarded-Proto: https); never over plain HTTP',
    schema: { type: 'string', enum: [STRICT_TRANSPORT_SECURITY[1]] },
    example: STRICT_TRANSPORT_SECURITY[1],
  },
  etag: (required: boolean): HeaderObject => ({
    required,
    description:
      'Strong validator of the catalog data this answer was read from and the request target (path and ' +
      'query as sent); meta.request_id is not part of what it validates' +
      (required
        ? ''
        : '. Absent when the catalog version is not known (none ingested, or one committed meanwhile)'),
    schema: { type: 'string', pattern: '^"[A-Za-z0-9_-]{27}"$' },
    example: ETAG_EXAMPLE,
  }),
  retryAfter: {
    required: true,
    description: 'Seconds: 60 for RATE_LIMITED; until 00:00:00 UTC on the 1st of next month for the quota',
    schema: { type: 'integer', minimum: 1 },
    example: 60,
  },
} satisfies Record<string, HeaderObject | ((required: boolean) => HeaderObject)>;

/**
 * Which headers each answer carries follows the order of checks: see docs/api.md, Headers
 * (401 and 403 carry no limits' headers; a 500 from the limits' store has no RateLimit fields).
 * The security headers and a Cache-Control are on every answer.
 */
function responseHeaders(access: RouteAccess, status: number, codes: readonly ErrorCode[] = []) {
  const headers: Record<string, HeaderObject> = { [REQUEST_ID_HEADER]: HEADERS.requestId };
  const authenticated = codes.every((code) => ERROR_CATALOGUE[code].keepsRateLimitHeaders);
  if (access === 'metered' && authenticated) {
    headers[RATE_LIMIT_HEADERS.limit] = HEADERS.limit;
    headers[RATE_LIMIT_HEADERS.remaining] = HEADERS.remaining;
    headers[RATE_LIMIT_FIELDS.policy] = HEADERS.rateLimitPolicy(status !== 500);
    headers[RATE_LIMIT_FIELDS.current] = HEADERS.rateLimit(status !== 500);
    headers['Cache-Control'] = HEADERS.privateCacheControl;
    headers.Vary = HEADERS.vary;
  } else {
    headers['Cache-Control'] = HEADERS.noStoreCacheControl;
  }
  if (status === 429) headers[RATE_LIMIT_HEADERS.retryAfter] = HEADERS.retryAfter;
  Object.assign(headers, SECURITY_HEADERS);
  headers[STRICT_TRANSPORT_SECURITY[0]] = HEADERS.strictTransportSecurity;
  return headers;
}

/**
 * Every route reads X-Request-Id (and echoes it when acceptable). No pattern: a value outside it is
 * replaced, never refused, and a pattern reads as a refusal to generators and fuzzers.
 */
export function ApiRequestIdHeader() {
  return ApiHeader({
    name: REQUEST_ID_HEADER,
    required: false,
    description:
      'A client-chosen id for the exchange, echoed in the X-Request-Id response header and the body. Any ' +
      'value is accepted: one that is not 1–128 characters of [A-Za-z0-9._-] (ASCII letters, digits, ' +
      '".", "_", "-") is replaced by a generated UUID, and the request is answered as usual.',
    schema: { type: 'string' },
    example: 'checkout-2026-11-29.0042',
  });
}

/** Links from a page of titles to the lookup of its first title (see TITLE_LOOKUP_OPERATION_ID). */
export const TITLE_PAGE_LINKS: Record<string, LinkObject> = {
  FirstTitle: {
    operationId: TITLE_LOOKUP_OPERATION_ID,
    parameters: { imdb_id: '$response.body#/data/0/imdb_id' },
    description:
      'The first title of the page, by its imdb_id (any item of data links the same way: /data/{i}/imdb_id)',
  },
};

/**
 * The 200 answer of a route: its envelope class, headers, links and an example body. A `conditional`
 * route (see ConditionalReply) also sends an ETag, reads If-None-Match and may answer 304 with no body.
 */
export function ApiOkEnvelope(
  type: Type<unknown>,
  access: RouteAccess,
  description: string,
  options: { conditional?: boolean; links?: Record<string, LinkObject>; example?: unknown } = {},
) {
  const { conditional = false, links, example } = options;
  const ok = ApiResponse({
    status: 200,
    type,
    description,
    headers: { ...responseHeaders(access, 200), ...(conditional ? { ETag: HEADERS.etag(false) } : {}) },
    ...(links ? { links } : {}),
    ...(example === undefined ? {} : { example }),
  });
  if (!conditional) return ok;
  return applyDecorators(
    ok,
    ApiHeader({
      name: 'If-None-Match',
      required: false,
      description:
        'ETags of answers the client holds (a list, or *): when one names this answer, it is 304 with no ' +
        'body. A 304 is authenticated and counted like any request.',
      schema: { type: 'string' },
      example: ETAG_EXAMPLE,
    }),
    ApiResponse({
      status: 304,
      description: 'Not Modified: the If-None-Match tag names this answer; no body',
      headers: { ...responseHeaders(access, 304), ETag: HEADERS.etag(true) },
    }),
  );
}

/**
 * The error answers of a route, grouped by status from the error catalogue (the one place that
 * maps codes to statuses): the error envelope with `code` narrowed to what the route can answer.
 */
export function ApiErrorResponses(access: RouteAccess, ...codes: ErrorCode[]) {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = ERROR_CATALOGUE[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return applyDecorators(
    ApiExtraModels(ErrorEnvelopeDto),
    ...[...byStatus].map(([status, statusCodes]) => errorResponse(access, status, statusCodes)),
  );
}

function errorResponse(
  access: RouteAccess,
  status: number,
  codes: ErrorCode[],
  extraHeaders: Record<string, HeaderObject> = {},
) {
  return ApiResponse({
    status,
    description: codes.map((code) => `${code}: ${ERROR_CATALOGUE[code].message}`).join(' '),
    headers: { ...responseHeaders(access, status, codes), ...extraHeaders },
    examples: Object.fromEntries(codes.map((code) => [code, errorExample(code)])),
    schema: {
      allOf: [
        { $ref: getSchemaPath(ErrorEnvelopeDto) },
        // The narrowing member names every field of the body, so validators that close each
        // subschema (unevaluatedProperties) read the envelope's examples as valid.
        {
          type: 'object',
          properties: {
            error: {
              type: 'object',
              properties: {
                code: { type: 'string', enum: codes },
                message: { type: 'string' },
                request_id: { type: 'string' },
              },
            },
          },
        },
      ],
    },
  });
}

/** What the service says of a VALIDATION_ERROR names the parameter; the others say the catalogue's message. */
const EXAMPLE_MESSAGES: Partial<Record<ErrorCode, string>> = {
  VALIDATION_ERROR: 'limit must be an integer from 1 to 20.',
};

/** An error envelope as the service answers it with `code`. */
export function errorExample(code: ErrorCode): { summary: string; value: ErrorEnvelopeDto } {
  const message = EXAMPLE_MESSAGES[code] ?? ERROR_CATALOGUE[code].message;
  return { summary: code, value: { error: { code, message, request_id: REQUEST_ID_EXAMPLE } } };
}

/** The codes every /v1 route can answer besides its own. */
export const METERED_ROUTE_ERRORS: readonly ErrorCode[] = [
  'VALIDATION_ERROR',
  'MISSING_API_KEY',
  'INVALID_API_KEY',
  'API_KEY_DISABLED',
  ...new Set(LIMITS.map((limit) => limit.refusal)),
  'INTERNAL_ERROR',
];
