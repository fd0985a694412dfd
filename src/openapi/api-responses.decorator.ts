import { type Type, applyDecorators } from '@nestjs/common';
import {
  ApiExtraModels,
  ApiHeader,
  ApiResponse,
  type HeaderObject,
  type LinkObject,
  getSchemaPath,
} from '@nestjs/swagger';
import { PRIVATE_ANSWER_HEADERS } from '../auth/private-answer-headers';
import { RATE_LIMIT_FIELDS, RATE_LIMIT_HEADERS, rateLimitFieldPatterns } from '../limits/rate-limit-headers';
import { LIMITS } from '../limits/limit-table';
import { ERROR_CATALOGUE, type ErrorCode } from '../common/errors/error-catalogue';
import { ACCEPTED_REQUEST_ID, REQUEST_ID_HEADER } from '../common/request-id/request-id';
import { TITLE_LOOKUP_OPERATION_ID } from './operation-ids';
import { ErrorEnvelopeDto } from './error-envelope.dto';

/** Whether a route sits behind the API key and the limits (then it answers with rate-limit headers). */
export type RouteAccess = 'public' | 'metered';

/** Matches what the service echoes: the client's X-Request-Id when it is one of these, else a UUID. */
const REQUEST_ID_SCHEMA = { type: 'string', pattern: ACCEPTED_REQUEST_ID.source } as const;

const RATE_LIMIT_FIELD_PATTERNS = rateLimitFieldPatterns(LIMITS);
/** `"minute" and "month"`: the limits, named in the table's order. */
const LIMIT_NAMES = LIMITS.map((limit) => `"${limit.name}"`)
  .join(', ')
  .replace(/, ([^,]*)$/, ' and $1');

const HEADERS = {
  requestId: {
    required: true,
    description:
      'The client-supplied X-Request-Id when it is 1–128 of [A-Za-z0-9._-], otherwise a generated UUID; ' +
      'also in meta.request_id or error.request_id',
    schema: REQUEST_ID_SCHEMA,
  },
  limit: {
    required: true,
    description: "The key's requests-per-minute policy",
    schema: { type: 'integer', minimum: 1 },
  },
  remaining: {
    required: true,
    description: 'Best effort: the limit minus 1 on an accepted request, 0 on a 429',
    schema: { type: 'integer', minimum: 0 },
  },
  rateLimitPolicy: (required: boolean): HeaderObject => ({
    required,
    description:
      `The IETF RateLimit-Policy field (draft-ietf-httpapi-ratelimit-headers): the ${LIMIT_NAMES} ` +
      'policies, q requests per w seconds',
    schema: { type: 'string', pattern: RATE_LIMIT_FIELD_PATTERNS.policy },
  }),
  rateLimit: (required: boolean): HeaderObject => ({
    required,
    description:
      'The IETF RateLimit field: per policy, r requests remaining (as this replica knows it) and t ' +
      'seconds until the window resets',
    schema: { type: 'string', pattern: RATE_LIMIT_FIELD_PATTERNS.current },
  }),
  cacheControl: {
    required: true,
    description: `An answer for one key is no one else's: ${PRIVATE_ANSWER_HEADERS['Cache-Control']}`,
    schema: { type: 'string' },
  },
  vary: {
    required: true,
    description: 'Answers differ by key',
    schema: { type: 'string', enum: [PRIVATE_ANSWER_HEADERS.Vary] },
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
  }),
  retryAfter: {
    required: true,
    description: 'Seconds: 60 for RATE_LIMITED; until 00:00:00 UTC on the 1st of next month for the quota',
    schema: { type: 'integer', minimum: 1 },
  },
} satisfies Record<string, HeaderObject | ((required: boolean) => HeaderObject)>;

/**
 * Which headers each answer carries follows the order of checks: see docs/api.md, Headers
 * (401 and 403 carry X-Request-Id only; a 500 from the limits' store has no RateLimit fields).
 */
function responseHeaders(access: RouteAccess, status: number, codes: readonly ErrorCode[] = []) {
  const headers: Record<string, HeaderObject> = { [REQUEST_ID_HEADER]: HEADERS.requestId };
  const authenticated = codes.every((code) => ERROR_CATALOGUE[code].keepsRateLimitHeaders);
  if (access === 'metered' && authenticated) {
    headers[RATE_LIMIT_HEADERS.limit] = HEADERS.limit;
    headers[RATE_LIMIT_HEADERS.remaining] = HEADERS.remaining;
    headers[RATE_LIMIT_FIELDS.policy] = HEADERS.rateLimitPolicy(status !== 500);
    headers[RATE_LIMIT_FIELDS.current] = HEADERS.rateLimit(status !== 500);
    headers['Cache-Control'] = HEADERS.cacheControl;
    headers.Vary = HEADERS.vary;
  }
  if (status === 429) headers[RATE_LIMIT_HEADERS.retryAfter] = HEADERS.retryAfter;
  return headers;
}

/** Every route reads X-Request-Id (and echoes it when acceptable). */
export function ApiRequestIdHeader() {
  return ApiHeader({
    name: REQUEST_ID_HEADER,
    required: false,
    description:
      'A client-chosen id for the exchange, echoed in the X-Request-Id response header and the body. A ' +
      'value that is not 1–128 of [A-Za-z0-9._-] is not refused: it is replaced by a generated UUID.',
    schema: REQUEST_ID_SCHEMA,
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
 * The 200 answer of a route: its envelope class, headers and links. A `conditional` route (see
 * ConditionalReply) also sends an ETag, reads If-None-Match and may answer 304 with no body.
 */
export function ApiOkEnvelope(
  type: Type<unknown>,
  access: RouteAccess,
  description: string,
  options: { conditional?: boolean; links?: Record<string, LinkObject> } = {},
) {
  const { conditional = false, links } = options;
  const ok = ApiResponse({
    status: 200,
    type,
    description,
    headers: { ...responseHeaders(access, 200), ...(conditional ? { ETag: HEADERS.etag(false) } : {}) },
    ...(links ? { links } : {}),
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
    schema: {
      allOf: [
        { $ref: getSchemaPath(ErrorEnvelopeDto) },
        {
          type: 'object',
          properties: {
            error: { type: 'object', properties: { code: { type: 'string', enum: codes } } },
          },
        },
      ],
    },
  });
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
