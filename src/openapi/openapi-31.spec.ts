import type { OpenAPIObject } from '@nestjs/swagger';
import { toOpenApi31 } from './openapi-31';

const document = (schemas: Record<string, object>, paths: OpenAPIObject['paths'] = {}): OpenAPIObject => ({
  openapi: '3.1.0',
  info: { title: 't', version: '1' },
  paths,
  components: { schemas },
});

describe('toOpenApi31', () => {
  it('turns nullable into a null type (and a null enum member), at any depth', () => {
    const input = document({
      Thing: {
        type: 'object',
        required: ['name', 'tags', 'kind'],
        properties: {
          name: { type: 'string', nullable: true },
          tags: { type: 'array', nullable: true, items: { type: 'integer', nullable: true } },
          kind: { type: 'string', enum: ['a', 'b'], nullable: true },
        },
      },
    });
    const { properties } = toOpenApi31(input).components!.schemas!.Thing as {
      properties: Record<string, object>;
    };
    expect(properties.name).toEqual({ type: ['string', 'null'] });
    expect(properties.tags).toEqual({ type: ['array', 'null'], items: { type: ['integer', 'null'] } });
    expect(properties.kind).toEqual({ type: ['string', 'null'], enum: ['a', 'b', null] });
    expect(JSON.stringify(input)).toContain('nullable');
  });

  it('closes objects that list their required properties, and leaves narrowing fragments open', () => {
    const fragment = { type: 'object', properties: { error: { type: 'object' } } };
    const out = toOpenApi31(
      document(
        { Closed: { type: 'object', required: ['a'], properties: { a: { type: 'string' } } } },
        {
          '/x': {
            get: {
              parameters: [{ name: 'p', in: 'query', schema: { type: 'integer', nullable: true } }],
              responses: {
                '400': {
                  description: 'bad',
                  content: { 'application/json': { schema: { allOf: [{ $ref: '#/x' }, fragment] } } },
                },
              },
            },
          },
        },
      ),
    );
    expect(out.components!.schemas!.Closed).toMatchObject({ additionalProperties: false });
    const operation = out.paths['/x'].get!;
    expect(operation.parameters).toEqual([{ name: 'p', in: 'query', schema: { type: ['integer', 'null'] } }]);
    expect(JSON.stringify(operation.responses['400'])).not.toContain('additionalProperties');
  });

  it('replaces an allOf of one member by that member, keeping the keywords beside it', () => {
    const out = toOpenApi31(
      document({
        Thing: {
          type: 'object',
          properties: { kind: { allOf: [{ $ref: '#/components/schemas/Kind' }], description: 'd' } },
        },
      }),
    );
    expect((out.components!.schemas!.Thing as { properties: object }).properties).toEqual({
      kind: { $ref: '#/components/schemas/Kind', description: 'd' },
    });
  });

  it("moves a parameter's example out of its schema onto the parameter", () => {
    const out = toOpenApi31(
      document(
        {},
        {
          '/x': {
            get: {
              parameters: [
                { name: 'p', in: 'query', schema: { type: 'integer', example: 3 } },
                { name: 'k', in: 'query', schema: { $ref: '#/components/schemas/Kind', example: 'a' } },
                { name: 'h', in: 'header', example: 'kept', schema: { type: 'string', example: 'dropped' } },
              ],
              responses: {},
            },
          },
        },
      ),
    );
    expect(out.paths['/x'].get!.parameters).toEqual([
      { name: 'p', in: 'query', example: 3, schema: { type: 'integer' } },
      { name: 'k', in: 'query', example: 'a', schema: { $ref: '#/components/schemas/Kind' } },
      { name: 'h', in: 'header', example: 'kept', schema: { type: 'string' } },
    ]);
  });
});
