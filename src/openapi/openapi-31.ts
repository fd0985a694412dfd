import type { OpenAPIObject } from '@nestjs/swagger';

type JsonObject = Record<string, unknown>;

/**
 * @nestjs/swagger emits 3.0 idioms under 3.1: rewrite them as JSON Schema 2020-12, and close
 * object schemas that list required properties (the contract allows no other fields).
 */
export function toOpenApi31(document: OpenAPIObject): OpenAPIObject {
  const rewritten = structuredClone(document);
  Object.values(rewritten.components?.schemas ?? {}).forEach(rewriteSchema);
  for (const pathItem of Object.values(rewritten.paths)) {
    for (const operation of Object.values(pathItem).filter(isObject)) {
      for (const parameter of asObjects(operation.parameters)) {
        rewriteSchema(parameter.schema);
        liftExample(parameter);
      }
      for (const response of objectValues(operation.responses)) {
        for (const media of objectValues(response.content)) rewriteSchema(media.schema);
        for (const header of objectValues(response.headers)) rewriteSchema(header.schema);
      }
    }
  }
  return rewritten;
}

/**
 * @nestjs/swagger writes a parameter's example into its schema, where 3.1 deprecates `example`; on
 * the parameter it is what generators, fuzzers and the reference page send.
 */
function liftExample(parameter: JsonObject): void {
  const { schema } = parameter;
  if (!isObject(schema) || schema.example === undefined) return;
  parameter.example ??= schema.example;
  delete schema.example;
}

function rewriteSchema(schema: unknown): void {
  if (!isObject(schema)) return;
  if (schema.nullable === true) {
    delete schema.nullable;
    if (typeof schema.type === 'string') schema.type = [schema.type, 'null'];
    if (Array.isArray(schema.enum)) schema.enum = [...schema.enum, null];
  }
  // The narrowing members of an allOf (see ApiErrorResponses) restate some properties only.
  if (
    isObject(schema.properties) &&
    Array.isArray(schema.required) &&
    schema.additionalProperties === undefined
  ) {
    schema.additionalProperties = false;
  }
  // A lone allOf member is how @nestjs/swagger refers to a named enum beside other keywords; 3.1
  // allows keywords beside $ref, so the reference stands alone.
  if (Array.isArray(schema.allOf) && schema.allOf.length === 1 && isObject(schema.allOf[0])) {
    const [member] = schema.allOf;
    delete schema.allOf;
    Object.assign(schema, member);
  }
  rewriteSchema(schema.items);
  rewriteSchema(schema.not);
  for (const key of ['allOf', 'anyOf', 'oneOf']) asObjects(schema[key]).forEach(rewriteSchema);
  objectValues(schema.properties).forEach(rewriteSchema);
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function asObjects(value: unknown): JsonObject[] {
  return Array.isArray(value) ? value.filter(isObject) : [];
}

function objectValues(value: unknown): JsonObject[] {
  return isObject(value) ? Object.values(value).filter(isObject) : [];
}
