import type { OpenAPIObject } from '@nestjs/swagger';
import { withHeadOperations } from './head-operations';

describe('withHeadOperations', () => {
  it('adds beside each GET its HEAD twin: same parameters and headers, no content or links', () => {
    const ok = {
      description: 'ok',
      headers: { 'X-Request-Id': { schema: { type: 'string' } } },
      content: { 'application/json': { schema: { type: 'object' } } },
      links: { Next: { operationId: 'other' } },
    };
    const get = {
      operationId: 'list',
      summary: 'A list',
      description: 'All of it.',
      parameters: [{ name: 'page', in: 'query' as const, schema: { type: 'integer' as const } }],
      security: [{ bearer: [] }],
      responses: { '200': ok },
    };
    const input: OpenAPIObject = {
      openapi: '3.1.0',
      info: { title: 't', version: '1' },
      paths: { '/x': { get } },
    };
    const { head } = withHeadOperations(input).paths['/x'];
    expect(head).toEqual({
      ...get,
      operationId: 'list_head',
      summary: 'A list: status and headers only',
      description: expect.stringMatching(/without its body.*All of it\.$/),
      responses: { '200': { description: 'ok', headers: ok.headers } },
    });
    expect(input.paths['/x'].head).toBeUndefined();
  });
});
