import type { AddressInfo } from 'node:net';
import { rawRequest } from './support/raw-http';
import { type TestApp, createTestApp } from './support/test-app';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Requests Node's parser refuses before routing, or answers by itself (no Host, CONNECT), still get
 * the error envelope, an X-Request-Id and the common headers, then the connection closes, and says so.
 */
describe('requests refused before routing', () => {
  let t: TestApp;
  /** Chosen by the OS: the e2e parts run side by side, and each may run this file at the same time. */
  let port: number;

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen(0, '127.0.0.1');
    port = (t.app.getHttpServer().address() as AddressInfo).port;
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
      const answer = await rawRequest(port, bytes);
      expect(answer.status).toBe(status);
      expect(answer.headers['content-type']).toMatch(/^application\/json/);
      expect(answer.headers['connection']).toBe('close');
      expect(answer.headers['x-request-id']).toMatch(UUID);
      expect(JSON.parse(answer.body)).toEqual({
        error: { code, message: expect.any(String), request_id: answer.headers['x-request-id'] },
      });
    },
  );

  /** The headers every answer carries, as a parsed answer's lower-case names. */
  const expectCommonHeaders = (headers: Record<string, string>) => {
    expect(headers).toMatchObject({
      'cache-control': 'no-store',
      'content-security-policy': "default-src 'none';frame-ancestors 'none'",
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
      connection: 'close',
    });
  };

  it.each([
    ['GET', 'GET /v1/movies HTTP/1.1\r\nX-Request-Id: no-host.1\r\n\r\n'],
    ['HEAD', 'HEAD /health HTTP/1.1\r\nX-Request-Id: no-host.1\r\n\r\n'],
  ])(
    'answers an HTTP/1.1 %s without Host with 400 in the envelope, echoing its request id',
    async (method, bytes) => {
      const answer = await rawRequest(port, bytes, 10_000, { head: method === 'HEAD' });
      expect(answer.status).toBe(400);
      expectCommonHeaders(answer.headers);
      expect(answer.headers['x-request-id']).toBe('no-host.1');
      expect(answer.headers['content-type']).toMatch(/^application\/json/);
      if (method === 'GET') {
        expect(JSON.parse(answer.body)).toEqual({
          error: { code: 'VALIDATION_ERROR', message: expect.any(String), request_id: 'no-host.1' },
        });
      }
    },
  );

  it('still serves HTTP/1.0 without Host', async () => {
    const answer = await rawRequest(port, 'GET /health HTTP/1.0\r\n\r\n');
    expect(answer.status).toBe(200);
  });

  it.each([
    ['without a request id', 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n', UUID],
    ['with one', 'CONNECT x:443 HTTP/1.1\r\nHost: x:443\r\nX-Request-Id: tunnel-1\r\n\r\n', /^tunnel-1$/],
  ])('answers CONNECT %s with 404 ROUTE_NOT_FOUND in the envelope, then closes', async (_case, bytes, id) => {
    const answer = await rawRequest(port, bytes);
    expect(answer.status).toBe(404);
    expectCommonHeaders(answer.headers);
    expect(answer.headers['x-request-id']).toMatch(id);
    expect(JSON.parse(answer.body)).toEqual({
      error: {
        code: 'ROUTE_NOT_FOUND',
        message: expect.any(String),
        request_id: answer.headers['x-request-id'],
      },
    });
  });

  it.each([
    ['broken chunked framing', 'GET /nope HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n'],
    ['a body', 'POST /v1/movies HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello'],
    ['a body still arriving', 'GET /health HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\nabc'],
  ])('says Connection: close on the answer to a request with %s, and closes', async (_case, bytes) => {
    const answer = await rawRequest(port, bytes);
    expect([200, 404]).toContain(answer.status);
    expectCommonHeaders(answer.headers);
  });

  it('ignores a client X-Request-Id it could not parse, and keeps serving', async () => {
    const answer = await rawRequest(
      port,
      head('GET /health HTTP/1.1', ['X-Request-Id: mine', `X-Big: ${'a'.repeat(20_000)}`]),
    );
    expect(answer.headers['x-request-id']).toMatch(UUID);
    const ok = await rawRequest(port, head('GET /health HTTP/1.1', ['Connection: close']));
    expect(ok.status).toBe(200);
  });
});
