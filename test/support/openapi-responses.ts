import type { Response } from 'supertest';

/**
 * Checks HTTP responses against the OpenAPI document the service serves: the status must be
 * documented for the route, the JSON body must match that response's schema, every required header
 * must be present, every documented header must match its schema, and no rate-limit header may appear
 * where the document does not list it.
 *
 * The schema check is a small JSON Schema (2020-12) evaluator for the keywords the document uses.
 * Ajv is only a transitive dependency here, so it is not used; instead this evaluator refuses any
 * keyword it does not implement, so it can never pass a body by ignoring a rule.
 */

type Schema = Record<string, unknown>;
type OpenApi = {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
};
type Operation = { responses: Record<string, ResponseDoc> };
type ResponseDoc = {
  headers?: Record<string, { required?: boolean; schema: Schema }>;
  content?: Record<string, { schema: Schema }>;
};

/** Headers whose presence the contract rules: they must be documented wherever they appear. */
const RULED_HEADERS = [
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'retry-after',
  'ratelimit',
  'ratelimit-policy',
  'etag',
];
const ANNOTATIONS = new Set(['description', 'example', 'examples', 'default', 'title', 'deprecated']);

export class OpenApiResponseChecker {
  /** Which route template and status each checked response exercised. */
  readonly covered = new Set<string>();

  constructor(private readonly document: OpenApi) {}

  /** Throws with every violation when `res` (the answer to GET `path`) does not match the document. */
  check(path: string, res: Response): void {
    const template = this.templateFor(path);
    const operation = this.document.paths[template]?.get;
    if (!operation) throw new Error(`GET ${template} is not in the document`);
    const documented = operation.responses[String(res.status)];
    if (!documented) throw new Error(`GET ${path}: status ${res.status} is not documented for ${template}`);
    this.covered.add(`${template} ${res.status}`);

    const errors: string[] = [];
    const headers = documented.headers ?? {};
    const names = new Map(Object.keys(headers).map((name) => [name.toLowerCase(), name]));
    for (const [name, header] of Object.entries(headers)) {
      const value = res.headers[name.toLowerCase()];
      if (value === undefined) {
        if (header.required) errors.push(`header ${name} is required`);
        continue;
      }
      const typed = header.schema.type === 'integer' && /^-?\d+$/.test(value) ? Number(value) : value;
      this.validate(header.schema, typed, `header ${name}`, errors);
    }
    for (const ruled of RULED_HEADERS) {
      if (res.headers[ruled] !== undefined && !names.has(ruled))
        errors.push(`header ${ruled} is not documented`);
    }
    const media = documented.content?.['application/json'];
    if (!documented.content) {
      // A response documented without content (304) must have none.
      if (res.text) errors.push(`a body is sent where the document has none: ${res.text.slice(0, 80)}`);
      if (res.headers['content-type'] !== undefined) errors.push('content-type is sent with no content');
    } else if (!media) errors.push('no application/json content is documented');
    else {
      if (!String(res.headers['content-type']).startsWith('application/json')) {
        errors.push(`content-type is ${res.headers['content-type']}`);
      }
      this.validate(media.schema, res.body, 'body', errors);
    }
    if (errors.length > 0) {
      throw new Error(`GET ${path} → ${res.status} does not match the document:\n  ${errors.join('\n  ')}`);
    }
  }

  /** The document's path template that `path` (without its query) matches. */
  templateFor(path: string): string {
    const bare = path.split('?')[0];
    const template = Object.keys(this.document.paths).find((candidate) =>
      new RegExp(`^${candidate.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(bare),
    );
    if (!template) throw new Error(`no documented route matches ${bare}`);
    return template;
  }

  private resolve(ref: string): Schema {
    const name = ref.replace('#/components/schemas/', '');
    const schema = this.document.components?.schemas?.[name];
    if (!ref.startsWith('#/components/schemas/') || !schema) throw new Error(`unresolvable $ref ${ref}`);
    return schema;
  }

  /** Appends a message per violation of `schema` by `value` at `at`. */
  validate(schema: Schema, value: unknown, at: string, errors: string[]): void {
    const fail = (message: string) => errors.push(`${at}: ${message}`);
    for (const [keyword, rule] of Object.entries(schema)) {
      if (ANNOTATIONS.has(keyword)) continue;
      switch (keyword) {
        case '$ref':
          this.validate(this.resolve(rule as string), value, at, errors);
          break;
        case 'allOf':
          for (const member of rule as Schema[]) this.validate(member, value, at, errors);
          break;
        case 'anyOf': {
          const passes = (rule as Schema[]).some((member) => {
            const memberErrors: string[] = [];
            this.validate(member, value, at, memberErrors);
            return memberErrors.length === 0;
          });
          if (!passes) fail('matches no member of anyOf');
          break;
        }
        case 'type': {
          const types = Array.isArray(rule) ? (rule as string[]) : [rule as string];
          if (!types.some((type) => hasType(value, type)))
            fail(`${JSON.stringify(value)} is not ${types.join(' or ')}`);
          break;
        }
        case 'enum':
          if (!(rule as unknown[]).includes(value))
            fail(`${JSON.stringify(value)} is not one of ${JSON.stringify(rule)}`);
          break;
        case 'const':
          if (value !== rule) fail(`${JSON.stringify(value)} is not ${JSON.stringify(rule)}`);
          break;
        case 'required':
          if (isObject(value)) {
            for (const name of rule as string[]) if (!(name in value)) fail(`missing property ${name}`);
          }
          break;
        case 'properties':
          if (isObject(value)) {
            for (const [name, propertySchema] of Object.entries(rule as Record<string, Schema>)) {
              if (name in value) this.validate(propertySchema, value[name], `${at}.${name}`, errors);
            }
          }
          break;
        case 'additionalProperties':
          if (isObject(value)) {
            const known = Object.keys((schema.properties as object | undefined) ?? {});
            for (const name of Object.keys(value).filter((key) => !known.includes(key))) {
              if (rule === false) fail(`unexpected property ${name}`);
              else if (rule !== true) this.validate(rule as Schema, value[name], `${at}.${name}`, errors);
            }
          }
          break;
        case 'items':
          if (Array.isArray(value))
            value.forEach((item, i) => this.validate(rule as Schema, item, `${at}[${i}]`, errors));
          break;
        case 'minItems':
          if (Array.isArray(value) && value.length < (rule as number)) fail(`fewer than ${rule} items`);
          break;
        case 'maxItems':
          if (Array.isArray(value) && value.length > (rule as number)) fail(`more than ${rule} items`);
          break;
        case 'minimum':
          if (typeof value === 'number' && value < (rule as number)) fail(`${value} < ${rule}`);
          break;
        case 'maximum':
          if (typeof value === 'number' && value > (rule as number)) fail(`${value} > ${rule}`);
          break;
        case 'minLength':
          if (typeof value === 'string' && [...value].length < (rule as number)) fail(`shorter than ${rule}`);
          break;
        case 'maxLength':
          if (typeof value === 'string' && [...value].length > (rule as number)) fail(`longer than ${rule}`);
          break;
        case 'pattern':
          if (typeof value === 'string' && !new RegExp(rule as string, 'u').test(value)) {
            fail(`${JSON.stringify(value)} does not match ${rule}`);
          }
          break;
        case 'format':
          if (typeof value === 'string' && !hasFormat(value, rule as string))
            fail(`${JSON.stringify(value)} is not a ${rule}`);
          break;
        default:
          throw new Error(`the response checker does not implement the keyword "${keyword}" (at ${at})`);
      }
    }
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case 'null':
      return value === null;
    case 'object':
      return isObject(value);
    case 'array':
      return Array.isArray(value);
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'string':
    case 'boolean':
      return typeof value === type;
    default:
      throw new Error(`unknown JSON Schema type ${type}`);
  }
}

function hasFormat(value: string, format: string): boolean {
  switch (format) {
    case 'date-time':
      return (
        /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/.test(value) &&
        !Number.isNaN(Date.parse(value))
      );
    case 'uri':
      return URL.canParse(value);
    default:
      throw new Error(`the response checker does not implement the format "${format}"`);
  }
}
