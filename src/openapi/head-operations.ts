import type { OpenAPIObject, OperationObject, ResponseObject } from '@nestjs/swagger';

/** Express answers HEAD on every GET route but @nestjs/swagger omits it: add each HEAD twin. */
export function withHeadOperations(document: OpenAPIObject): OpenAPIObject {
  const described = structuredClone(document);
  for (const pathItem of Object.values(described.paths)) {
    if (pathItem.get && !pathItem.head) pathItem.head = headOf(pathItem.get);
  }
  return described;
}

function headOf(get: OperationObject): OperationObject {
  const responses = Object.fromEntries(
    Object.entries(get.responses).map(([status, response]) => {
      const bodiless: ResponseObject = { ...(response as ResponseObject) };
      delete bodiless.content;
      delete bodiless.links;
      return [status, bodiless];
    }),
  );
  return {
    ...structuredClone(get),
    operationId: get.operationId && `${get.operationId}_head`,
    summary: `${get.summary ?? 'GET'}: status and headers only`,
    description:
      `The GET operation's answer without its body: the same checks, status and headers (Content-Type ` +
      `and Content-Length included), counted in the limits like a GET. ${get.description ?? ''}`.trim(),
    responses,
  };
}
