import { SetMetadata, type Type, applyDecorators } from '@nestjs/common';
import { ApiBearerAuth, type LinkObject } from '@nestjs/swagger';
import type { ErrorCode } from '../common/errors/error-catalogue';
import { PUBLIC_ROUTE } from '../common/routing/public-route.decorator';
import { LIMITS } from '../limits/limit-table';
import { QUOTA_FREE_ROUTE } from '../limits/quota-free.decorator';
import {
  ApiErrorResponses,
  ApiOkEnvelope,
  ApiRequestIdHeader,
  METERED_ROUTE_ERRORS,
  type RouteAccess,
} from '../openapi/api-responses.decorator';
import { BEARER_SCHEME } from '../openapi/openapi-document';

/** Set by an access kind's `ok`: the route describes its 200 answer itself. */
export const OK_DESCRIBED = 'catalog-api:ok-described';

type RouteDecorator = ClassDecorator & MethodDecorator;
type OkOptions = { conditional?: boolean; links?: Record<string, LinkObject>; example?: unknown };

/** An access kind: the decorator for a controller or route, and its answers described alike. */
interface Access {
  (): RouteDecorator;
  /** The 200 answer: its envelope class, description and example body (`conditional`: ETag and 304 too). */
  ok(type: Type<unknown>, description: string, options?: OkOptions): MethodDecorator & ClassDecorator;
  /** Error answers a route adds to its access kind's own (a code of the error catalogue). */
  errors(...codes: ErrorCode[]): MethodDecorator & ClassDecorator;
}

function access(kind: RouteAccess, decorate: () => RouteDecorator): Access {
  return Object.assign(decorate, {
    ok: (type: Type<unknown>, description: string, options?: OkOptions) =>
      applyDecorators(SetMetadata(OK_DESCRIBED, true), ApiOkEnvelope(type, kind, description, options)),
    errors: (...codes: ErrorCode[]) => ApiErrorResponses(kind, ...codes),
  });
}

/** Sets the guards' metadata and the OpenAPI description of a route behind the API key. */
function keyed(quotaFree: boolean, errors: readonly ErrorCode[]): RouteDecorator {
  return applyDecorators(
    SetMetadata(PUBLIC_ROUTE, false),
    ...(quotaFree ? [SetMetadata(QUOTA_FREE_ROUTE, true)] : []),
    ApiBearerAuth(BEARER_SCHEME),
    ApiRequestIdHeader(),
    ApiErrorResponses('metered', ...errors),
  );
}

/** Behind the API key and every limit of the table: a catalog route. */
export const Metered = access('metered', () => keyed(false, METERED_ROUTE_ERRORS));

/** Behind the API key, counted in the rates but in no quota, so answered at an exhausted quota (`/v1/usage`). */
export const QuotaFree = access('metered', () =>
  keyed(
    true,
    METERED_ROUTE_ERRORS.filter((code) => !LIMITS.some((row) => row.quota && row.refusal === code)),
  ),
);

/** No API key and not metered (`/health`). */
export const PublicRoute = access('public', () =>
  applyDecorators(SetMetadata(PUBLIC_ROUTE, true), ApiRequestIdHeader()),
);
