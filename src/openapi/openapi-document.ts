import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { integerParamMessage } from '../common/validation/query-decorators';
import { unknownParameterMessage } from '../common/validation/unknown-parameter';
import { tagDescription } from './api-tag.decorator';
import { withHeadOperations } from './head-operations';
import { toOpenApi31 } from './openapi-31';
import { describeRouteDefaults } from '../route-kit/route-defaults';

/** The name of the bearer security scheme the /v1 routes require. */
export const BEARER_SCHEME = 'bearer';
export const OPENAPI_VERSION = '3.1.0';
export const API_VERSION = '2.0.0';

/** Builds the API description from the controllers and DTO classes of `app`. */
export function createOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setOpenAPIVersion(OPENAPI_VERSION)
    .setTitle('Catalog API')
    .setDescription(
      'Read-only REST API over a catalog of movie and series titles. Every response is JSON and carries ' +
        'X-Request-Id. Catalog routes (/v1) need an API key as a bearer token and are metered per minute ' +
        'and per month. Every route answers GET and HEAD; any other method, and any other path, is ' +
        '404 ROUTE_NOT_FOUND with X-Request-Id only and no key needed; GET / as well, with a Link header ' +
        'naming /docs (service-doc) and /openapi.json (service-desc).',
    )
    .setVersion(API_VERSION)
    // First the origin the document was read from: the reference page's "try" then calls the service
    // that served it, over whatever scheme it was reached by (a local run is plain HTTP).
    .addServer('/', 'The origin this document was served from')
    // The form clients should use; a server without TLS_CERT_FILE behind no TLS proxy is http://.
    .addServer(
      'https://{host}',
      'The service over HTTPS: its own TLS port (TLS_CERT_FILE) or the TLS-terminating proxy in front of it',
      {
        host: { default: 'localhost:3000', description: "The deployment's host name, and port when not 443" },
      },
    )
    .addServer('http://{host}', 'A local run: the service itself speaks plain HTTP (PORT defaults to 3000)', {
      host: { default: 'localhost:3000', description: 'HOST:PORT of the service' },
    })
    .addTag('catalog', 'Titles: search, lookup, movie and series lists (API key required)')
    .addTag('usage', "The calling key's limits and standing (API key required)")
    .addTag('health', 'Service and catalog health (public)')
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'mov_live_…',
        description: 'An API key: mov_live_ followed by at least 43 characters of [A-Za-z0-9_-]',
      },
      BEARER_SCHEME,
    )
    .build();
  // The service is not open source (package.json: UNLICENSED): a license without a URL or SPDX id.
  config.info.license = { name: 'Proprietary: all rights reserved' };
  // A route that describes no access kind or answer of its own is described as it is served.
  describeRouteDefaults(app);
  // A controller without a tag is tagged by its class name (PlainController: Plain), so every
  // operation has one; the service's own controllers all name theirs.
  return withUsedTagsDeclared(
    withHeadOperations(
      withValidationExamples(
        toOpenApi31(SwaggerModule.createDocument(app, config, { autoTagControllers: true })),
      ),
    ),
  );
}

type Parameter = {
  in?: string;
  name?: string;
  schema?: { type?: string; minimum?: number; maximum?: number };
};
type Media = { examples?: Record<string, { value: { error: { message: string } } }> };
type Operation = {
  parameters?: Parameter[];
  responses?: Record<string, { content?: Record<string, Media> }>;
};

/**
 * A VALIDATION_ERROR example says what the service says on that operation: the range of one of its
 * integer query parameters, or, when it takes none, the refusal of one (both the validation's own
 * messages). Operations share their error responses' objects: each gets copies of its own.
 */
function withValidationExamples(document: OpenAPIObject): OpenAPIObject {
  for (const pathItem of Object.values(document.paths)) {
    for (const operation of Object.values(pathItem) as Operation[]) {
      const media = operation?.responses?.['400']?.content?.['application/json'];
      const example = media?.examples?.VALIDATION_ERROR;
      if (!media || !example) continue;
      const query = (operation.parameters ?? []).filter((parameter) => parameter.in === 'query');
      const integer = query.find((parameter) => parameter.schema?.type === 'integer');
      const { minimum, maximum } = integer?.schema ?? {};
      let message: string | undefined;
      if (integer?.name !== undefined && minimum !== undefined && maximum !== undefined) {
        message = `${integerParamMessage(integer.name, minimum, maximum)}.`;
      } else if (query.length === 0) {
        message = unknownParameterMessage('page', new Set());
      }
      if (message === undefined) continue;
      const value = { ...example.value, error: { ...example.value.error, message } };
      const response = operation.responses!['400'];
      const described = {
        ...media,
        examples: { ...media.examples, VALIDATION_ERROR: { ...example, value } },
      };
      operation.responses = {
        ...operation.responses,
        '400': { ...response, content: { ...response.content, 'application/json': described } },
      };
    }
  }
  return document;
}

/**
 * Declares undeclared tags from `@ApiTag`, so an added module (docs/extending.md) needs no line here
 * and the document still passes the linters.
 */
function withUsedTagsDeclared(document: OpenAPIObject): OpenAPIObject {
  const declared = new Set((document.tags ?? []).map((tag) => tag.name));
  for (const pathItem of Object.values(document.paths)) {
    for (const operation of Object.values(pathItem) as { tags?: unknown }[]) {
      if (!Array.isArray(operation?.tags)) continue;
      for (const name of operation.tags as string[]) {
        if (declared.has(name)) continue;
        declared.add(name);
        // A tag with no ApiTag description (a controller tagged by its class name) is described by default.
        const description =
          tagDescription(name) ?? `The ${name} routes: give the tag a description with ApiTag`;
        (document.tags ??= []).push({ name, description });
      }
    }
  }
  return document;
}
