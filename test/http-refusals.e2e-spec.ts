import { rawRequest } from './support/raw-http';
import { type TestApp, createTestApp } from './support/test-app';

const PORT = 4330;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Issue 16.3 and 12: requests Node's parser refuses before routing still get the error envelope
 * and a generated X-Request-Id, then the connection closes.
 */
describe('requests refused before routing', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen(PORT, '127.0.0.1');
  });
  afterAll(() => t.close());

  const head = (requestLine: string, headers: string[] = []) =>
    [requestLine, 'Host: localhost', ...headers, '', ''].join('\r\n');

  const nonAscii = Buffer.concat([
    Buffer.from('GET /v1/titles/tt'),
    Buffer.from([0xff, 0xc3, 0xa9]),
    Buffer.from(head(' HTTP/1.1').slice(1)),
  ]);

  it.each([
    ['a lowercase method', 404, 'ROUTE_NOT_FOUND', head('get /v1/movies HTTP/1.1')],
    ['an unknown method', 404, 'ROUTE_NOT_FOUND', head('FETCH /v1/movies HTTP/1.1')],
    ['a request line that is not HTTP', 404, 'ROUTE_NOT_FOUND', 'HELLO\r\n\r\n'],
    ['raw non-ASCII bytes in the target', 400, 'VALIDATION_ERROR', nonAscii],
    ['a broken HTTP version', 400, 'VALIDATION_ERROR', head('GET /health HTTP/9')],
    ['a header without a colon', 400, 'VALIDATION_ERROR', head('GET /health HTTP/1.1', ['Broken header'])],
    [
      'a 20 KB header',
      431,
      'VALIDATION_ERROR',
      head('GET /health HTTP/1.1', [`X-Big: ${'a'.repeat(20_000)}`]),
    ],
    [
      'a 20 KB Authorization header',
      431,
      'VALIDATION_ERROR',
      head('GET /v1/movies HTTP/1.1', [`Authorization: Bearer mov_live_${'A'.repeat(20_000)}`]),
    ],
    ['a 100 KB URL', 414, 'VALIDATION_ERROR', head(`GET /v1/search?q=${'a'.repeat(100_000)} HTTP/1.1`)],
  ] as const)(
    'answers %s with %i %s in the envelope and a generated request id',
    async (_case, status, code, bytes) => {
      const answer = await rawRequest(PORT, bytes);
      expect(answer.status).toBe(status);
      expect(answer.headers['content-type']).toMatch(/^application\/json/);
      expect(answer.headers['connection']).toBe('close');
      expect(answer.headers['x-request-id']).toMatch(UUID);
      expect(JSON.parse(answer.body)).toEqual({
        error: { code, message: expect.any(String), request_id: answer.headers['x-request-id'] },
      });
    },
  );

  it('ignores a client X-Request-Id it could not parse, and keeps serving', async () => {
    const answer = await rawRequest(
      PORT,
      head('GET /health HTTP/1.1', ['X-Request-Id: mine', `X-Big: ${'a'.repeat(20_000)}`]),
    );
    expect(answer.headers['x-request-id']).toMatch(UUID);
    const ok = await rawRequest(PORT, head('GET /health HTTP/1.1', ['Connection: close']));
    expect(ok.status).toBe(200);
  });
});
