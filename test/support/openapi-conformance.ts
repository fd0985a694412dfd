import addFormats from 'ajv-formats';
import { OpenAPIBackend, type Operation } from 'openapi-backend';
import type { Response } from 'supertest';

/** One exchange as recorded: the request sent and the response it got. */
export interface Exchange {
  method: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';
  path: string;
  res: Response;
}

/** Headers the document owns: wherever one is sent, the response must declare it. */
const DECLARED_WHEREVER_SENT = [
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'retry-after',
  'ratelimit',
  'ratelimit-policy',
  'etag',
];

/**
 * Headers every answer of an operation carries (src/server/security-headers.ts), which the
 * document declares on each of them (an unrouted 404 carries them too, with no operation to declare them).
 */
const DECLARED_ON_EVERY_OPERATION = [
  'cache-control',
  'content-security-policy',
  'referrer-policy',
  'x-content-type-options',
  'strict-transport-security',
  'vary',
];

type ResponseDoc = { headers?: Record<string, { required?: boolean }>; content?: object };

/**
 * Checks recorded exchanges against the served OpenAPI document with openapi-backend: its router
 * finds the operation (method and path template), its Ajv validators check the JSON body against
 * the response schema of the status and every sent header the response declares against its
 * schema. Around it, what the validator leaves to its caller: the status must be documented,
 * declared `required` headers must be there, a response documented without content has no body,
 * and a path or method with no operation is the 404 ROUTE_NOT_FOUND the document's description
 * states. Undeclared headers are allowed (as the validator allows them), except those above.
 *
 * `quick`: the validator's own check of the document is OpenAPI 3.0's, which refuses 3.1's type
 * arrays; test/openapi.e2e-spec.ts checks the document with a 3.1 validator instead. The schemas
 * use only keywords whose meaning JSON Schema draft-07 (the validator's Ajv) and 2020-12 share.
 */
export class OpenApiConformance {
  /** `METHOD template status` of every exchange checked. */
  readonly covered = new Set<string>();

  private constructor(private readonly api: OpenAPIBackend) {}

  static async of(document: object): Promise<OpenApiConformance> {
    const api = new OpenAPIBackend({
      definition: structuredClone(document) as never,
      quick: true,
      ajvOpts: { allErrors: true },
      customizeAjv: (ajv) => {
        addFormats(ajv as never);
        return ajv;
      },
    });
    await api.init();
    return new OpenApiConformance(api);
  }

  /** Every way `exchange` departs from the document (empty when it conforms). */
  violations({ method, path, res }: Exchange): string[] {
    const [pathname, query = ''] = path.split('?');
    const operation = this.api.router.matchOperation({ method, path: pathname, query, headers: {} });
    if (!operation) return this.unroutedViolations(method, res);
    const documented = operation.responses?.[String(res.status)] as ResponseDoc | undefined;
    if (!documented) return [`status ${res.status} is not documented for ${operation.operationId}`];
    this.covered.add(`${method} ${operation.path} ${res.status}`);
    return [
      ...this.headerViolations(operation, documented, res),
      ...this.bodyViolations(operation, documented, method, res),
    ];
  }

  private headerViolations(operation: Operation, documented: ResponseDoc, res: Response): string[] {
    const declared = Object.entries(documented.headers ?? {});
    const names = new Set(declared.map(([name]) => name.toLowerCase()));
    const { errors } = this.api.validator.validateResponseHeaders(res.headers, operation, {
      statusCode: res.status,
      setMatchType: 'any' as never,
    });
    return [
      ...(errors ?? []).map((error) => `header ${error.instancePath}: ${error.message}`),
      ...declared
        .filter(([name, header]) => header.required && res.headers[name.toLowerCase()] === undefined)
        .map(([name]) => `required header ${name} is missing`),
      ...[...DECLARED_WHEREVER_SENT, ...DECLARED_ON_EVERY_OPERATION]
        .filter((name) => res.headers[name] !== undefined && !names.has(name))
        .map((name) => `header ${name} is sent but not declared`),
    ];
  }

  private bodyViolations(
    operation: Operation,
    documented: ResponseDoc,
    method: string,
    res: Response,
  ): string[] {
    if (!documented.content) {
      const violations = res.text ? [`a body where the document has none: ${res.text.slice(0, 80)}`] : [];
      // A HEAD answer describes the GET body it leaves out; a 304 describes nothing.
      if (method === 'GET' && res.headers['content-type'] !== undefined)
        violations.push('content-type with no content');
      return violations;
    }
    if (!String(res.headers['content-type']).startsWith('application/json')) {
      return [`content-type is ${res.headers['content-type']}`];
    }
    const { errors } = this.api.validator.validateResponse(res.body, operation, res.status);
    return (errors ?? []).map(
      (error) => `body ${error.instancePath}: ${error.message} ${JSON.stringify(error.params)}`,
    );
  }

  /** No operation: the document's description says 404 ROUTE_NOT_FOUND, X-Request-Id only. */
  private unroutedViolations(method: string, res: Response): string[] {
    this.covered.add(`${method} (no operation) ${res.status}`);
    const violations: string[] = [];
    if (res.status !== 404) violations.push(`status ${res.status} where no operation is documented`);
    if (method !== 'HEAD' && res.body?.error?.code !== 'ROUTE_NOT_FOUND')
      violations.push('not ROUTE_NOT_FOUND');
    const sent = DECLARED_WHEREVER_SENT.filter((name) => res.headers[name] !== undefined);
    if (sent.length > 0) violations.push(`carries ${sent.join(', ')}`);
    return violations;
  }
}
