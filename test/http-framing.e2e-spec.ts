import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { FIXTURE_TITLES } from './support/catalog-fixture';
import { rawConversation } from './support/raw-http';
import { type TestApp, createTestApp } from './support/test-app';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * An `Expect` the server does not know and a request body the parser refuses. Raw
 * sockets, so nothing normalizes the bytes and every byte the server sends back is seen.
 */
describe('HTTP framing edge cases', () => {
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    t = await createTestApp();
    await t.writer.replaceCatalog({ titles: FIXTURE_TITLES });
    await t.app.listen(0, '127.0.0.1');
    port = ((t.app.getHttpServer() as Server).address() as AddressInfo).port;
  });
  afterAll(() => t.close());

  const head = (requestLine: string, headers: string[]) =>
    [requestLine, 'Host: localhost', ...headers, '', ''].join('\r\n');

  describe('an Expect other than 100-continue is ignored: the route answers as usual', () => {
    it.each([
      ['/health', 200],
      ['/v1/movies', 401],
      ['/nowhere', 404],
    ])('GET %s answers %i with the envelope and X-Request-Id', async (path, status) => {
      const { answers } = await rawConversation(
        port,
        head(`GET ${path} HTTP/1.1`, ['Expect: foo', 'X-Request-Id: mine', 'Connection: close']),
      );
      expect(answers).toHaveLength(1);
      expect(answers[0].status).toBe(status);
      expect(answers[0].headers['x-request-id']).toBe('mine');
      expect(answers[0].headers['content-type']).toMatch(/^application\/json/);
      const body = JSON.parse(answers[0].body) as { meta?: unknown; error?: { request_id: string } };
      expect(body.error?.request_id ?? body.meta).toBeDefined();
    });

    it('serves a keyed route with an unknown expectation', async () => {
      const { answers } = await rawConversation(
        port,
        head('GET /v1/titles/tt0111161 HTTP/1.1', [
          `Authorization: Bearer ${t.key}`,
          'Expect: 200-ok',
          'Connection: close',
        ]),
      );
      expect(answers.map((a) => a.status)).toEqual([200]);
      expect(answers[0].headers['x-ratelimit-limit']).toBeDefined();
    });

    it('still answers 100 Continue to Expect: 100-continue, then the route', async () => {
      const { answers } = await rawConversation(
        port,
        head('GET /health HTTP/1.1', ['Expect: 100-continue', 'Connection: close']),
      );
      expect(answers.map((a) => a.status)).toEqual([100, 200]);
    });
  });

  describe('a request body the parser refuses gets exactly one answer, then the connection closes', () => {
    it.each([
      ['POST /x', 'Transfer-Encoding: 5', 404],
      ['POST /x', 'Transfer-Encoding: gzip', 404],
      ['GET /health', 'Transfer-Encoding: 5', 200],
      ['GET /v1/movies', 'Transfer-Encoding: identity', 401],
    ])('%s with %s: one %i, then close', async (requestLine, header, status) => {
      const started = Date.now();
      const { answers, closed } = await rawConversation(port, head(`${requestLine} HTTP/1.1`, [header]));
      expect(answers.map((a) => a.status)).toEqual([status]);
      expect(answers[0].headers['x-request-id']).toMatch(UUID);
      expect(closed).toBe(true);
      expect(Date.now() - started).toBeLessThan(1_000);
    });

    it('a body that is not valid chunked encoding: the route answer only, then close', async () => {
      const { answers, closed } = await rawConversation(
        port,
        `${head('POST /x HTTP/1.1', ['Transfer-Encoding: chunked'])}zz\r\nnot chunked\r\n\r\n`,
      );
      expect(answers.map((a) => a.status)).toEqual([404]);
      expect(closed).toBe(true);
    });

    it('a Transfer-Encoding refused with the head is refused before routing, once', async () => {
      const { answers, closed } = await rawConversation(
        port,
        head('GET /v1/movies HTTP/1.1', ['Transfer-Encoding: chunked, x']),
      );
      expect(answers.map((a) => a.status)).toEqual([400]);
      expect(closed).toBe(true);
    });

    it('a malformed request pipelined behind a good one is refused after its answer', async () => {
      const { answers, closed } = await rawConversation(
        port,
        head('GET /health HTTP/1.1', []) + head('GET /health HTTP/1.1', ['Broken header']),
      );
      expect(answers.map((a) => a.status)).toEqual([200, 400]);
      expect(JSON.parse(answers[1].body)).toMatchObject({ error: { code: 'VALIDATION_ERROR' } });
      expect(closed).toBe(true);
    });
  });
});
