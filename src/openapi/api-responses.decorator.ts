import { type Type, applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiHeader, ApiResponse, type HeaderObject, getSchemaPath } from '@nestjs/swagger';
import { ERROR_CATALOGUE, type ErrorCode } from '../common/errors/error-catalogue';
import { REQUEST_ID_HEADER } from '../common/request-id/request-id';
import { RATE_LIMIT_HEADERS } from '../limits/limits-policy';
import { ErrorEnvelopeDto } from './error-envelope.dto';

/** Whether a route sits behind the API key and the limits (then it answers with rate-limit headers). */
export type RouteAccess = 'public' | 'metered';

const HEADERS = {
  requestId: {
    required: true,
    description:
      'The client-supplied X-Request-Id when it is 1–128 of [A-Za-z0-9._-], otherwise a generated UUID; ' +
      'also in meta.request_id or error.request_id',
    schema: { type: 'string', pattern: '^[A-Za-z0-9._-]{1,128}$' },
  },
  limit: (required: boolean): HeaderObject => ({
    required,
    description: "The key's requests-per-minute policy",
    schema: { type: 'integer', minimum: 1 },
  }),
  remaining: (required: boolean): HeaderObject => ({
    required,
    description: 'Best effort: the limit minus 1 on an accepted request, 0 on a 429',
    schema: { type: 'integer', minimum: 0 },
  }),
  etag: {
    required: true,
    description:
      'Strong validator of the catalog data this answer was read from and the request target (path and ' +
      'query as sent); meta.request_id is not part of what it validates',
    schema: { type: 'string', pattern: '^"[A-Za-z0-9_-]{27}"$' },
  },
  retryAfter: {
    required: true,
    description: 'Seconds: 60 for RATE_LIMITED; until 00:00:00 UTC on the 1st of next month for the quota',
    schema: { type: 'integer', minimum: 1 },
  },
} satisfies Record<string, HeaderObject | ((required: boolean) => HeaderObject)>;

/**
 * The headers of a response. A metered route's answers after the per-minute check carry the
 * rate-limit headers; a 500 or a 400 may also come before it (a failing key lookup, a malformed
 * path), so there they are documented but not required.
 */
function responseHeaders(access: RouteAccess, status: number, codes: readonly ErrorCode[] = []) {
  const headers: Record<string, HeaderObject> = { [REQUEST_ID_HEADER]: HEADERS.requestId };
  const afterLimitCheck = codes.every((code) => ERROR_CATALOGUE[code].keepsRateLimitHeaders);
  if (access === 'metered' && afterLimitCheck) {
    const always = status === 200 || status === 304 || status === 404 || status === 429;
    headers[RATE_LIMIT_HEADERS.limit] = HEADERS.limit(always);
    headers[RATE_LIMIT_HEADERS.remaining] = HEADERS.remaining(always);
  }
  if (status === 429) headers['Retry-After'] = HEADERS.retryAfter;
  return headers;
}

/**
 * The 200 answer of a route: its envelope class and headers. A `conditional` route (see
 * ConditionalReply) also sends an ETag, reads If-None-Match and may answer 304 with no body.
 */
export function ApiOkEnvelope(
  type: Type<unknown>,
  access: RouteAccess,
  description: string,
  options: { conditional?: boolean } = {},
) {
  if (!options.conditional) {
    return ApiResponse({ status: 200, type, description, headers: responseHeaders(access, 200) });
  }
  return applyDecorators(
    ApiResponse({
      status: 200,
      type,
      description,
      headers: { ...responseHeaders(access, 200), ETag: HEADERS.etag },
    }),
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
      headers: { ...responseHeaders(access, 304), ETag: HEADERS.etag },
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
    ...[...byStatus].map(([status, statusCodes]) =>
      ApiResponse({
        status,
        description: statusCodes.map((code) => `${code}: ${ERROR_CATALOGUE[code].message}`).join(' '),
        headers: responseHeaders(access, status, statusCodes),
        schema: {
          allOf: [
            { $ref: getSchemaPath(ErrorEnvelopeDto) },
            {
              type: 'object',
              properties: {
                error: { type: 'object', properties: { code: { type: 'string', enum: statusCodes } } },
              },
            },
          ],
        },
      }),
    ),
  );
}

/** The codes every /v1 route can answer besides its own. */
export const METERED_ROUTE_ERRORS: readonly ErrorCode[] = [
  'VALIDATION_ERROR',
  'MISSING_API_KEY',
  'INVALID_API_KEY',
  'API_KEY_DISABLED',
  'RATE_LIMITED',
  'MONTHLY_QUOTA_EXCEEDED',
  'INTERNAL_ERROR',
];
