import { IncomingMessage, type Server, ServerResponse, request as httpRequest } from 'node:http';
import type { Express } from 'express';
import type { AddressInfo } from 'node:net';
import { FIXTURE_TITLES } from './support/catalog-fixture';
import { type TestApp, createTestApp } from './support/test-app';

interface RawAnswer {
  status: number;
  /** Every header line as sent, names in their case and order. */
  headers: string[];
  body: Buffer;
}

/** One request on a fresh connection; the answer as it came off the wire. */
function ask(
  server: Server,
  method: string,
  path: string,
  headers: Record<string, string>,
): Promise<RawAnswer> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const headerLines: string[] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2)
          headerLines.push(`${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}`);
        resolve({ status: res.statusCode!, headers: headerLines, body: Buffer.concat(chunks) });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * Minus what differs per request or per second: Date, X-Request-Id (sent the same anyway), and the
 * seconds to a limit window's reset in `RateLimit` (`t=`), which moves with the clock.
 */
function comparable(answer: RawAnswer): RawAnswer {
  return {
    ...answer,
    headers: answer.headers
      .filter((line) => !/^(date|x-request-id):/i.test(line))
      .map((line) => (/^ratelimit:/i.test(line) ? line.replace(/;t=\d+/g, ';t=…') : line)),
  };
}

/** `FAST_ANSWERS=0` (Express's `res.send`, one layer per middleware) answers the same bytes as the default. */
describe('FAST_ANSWERS on and off', () => {
  let fast: TestApp;
  let stock: TestApp;

  beforeAll(async () => {
    fast = await createTestApp({ fastAnswers: true });
    stock = await createTestApp({ fastAnswers: false });
    for (const t of [fast, stock]) {
      await t.writer.replaceCatalog({ titles: FIXTURE_TITLES }, { catalogVersion: 'fast-answers-1' });
      const server = t.app.getHttpServer() as Server;
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    }
  });
  afterAll(async () => {
    await fast?.close();
    await stock?.close();
  });

  /** The same request to both servers, each with its own key. */
  async function both(path: string, headers: Record<string, string> = {}, withKey = true, method = 'GET') {
    const answers: RawAnswer[] = [];
    for (const t of [fast, stock]) {
      const sent: Record<string, string> = { 'x-request-id': 'same-id-1', ...headers };
      if (withKey) sent.authorization = `Bearer ${t.key}`;
      answers.push(await ask(t.app.getHttpServer() as Server, method, path, sent));
    }
    return answers.map(comparable);
  }

  /** The request class the server makes its requests of (Node keeps it under a symbol of that name). */
  function requestClassOf(t: TestApp): unknown {
    const server = t.app.getHttpServer() as Server;
    const symbol = Object.getOwnPropertySymbols(server).find((s) => s.description === 'IncomingMessage');
    return symbol === undefined ? undefined : (server as unknown as Record<symbol, unknown>)[symbol];
  }

  it("turns the bends off: Nest's own server and Node's own header methods", () => {
    const responseOf = (t: TestApp) => (t.app.getHttpAdapter().getInstance() as Express).response;
    expect(Object.prototype.hasOwnProperty.call(responseOf(fast), 'setHeader')).toBe(true);
    expect(Object.prototype.hasOwnProperty.call(responseOf(stock), 'setHeader')).toBe(false);
    expect(responseOf(stock).setHeader).toBe(ServerResponse.prototype.setHeader);
    expect(requestClassOf(fast)).not.toBe(IncomingMessage);
    expect(requestClassOf(stock)).toBe(IncomingMessage);
  });

  it.each([
    ['a lookup', '/v1/titles/tt0111161'],
    ['a search', '/v1/search?q=the&limit=5'],
    ['a list page', '/v1/movies?limit=3'],
  ])('%s, cached, and its 304', async (_name, path) => {
    await both(path); // cached from the second ask on
    const [fastAnswer, stockAnswer] = await both(path);
    expect(fastAnswer.status).toBe(200);
    expect(stockAnswer).toEqual(fastAnswer);
    const etag = fastAnswer.headers.find((line) => /^etag:/i.test(line))!.replace(/^etag: /i, '');
    const [fastFresh, stockFresh] = await both(path, { 'if-none-match': etag });
    expect(fastFresh.status).toBe(304);
    expect(stockFresh).toEqual(fastFresh);
    const [fastHead, stockHead] = await both(path, {}, true, 'HEAD');
    expect(fastHead.status).toBe(200);
    expect(fastHead.body.length).toBe(0);
    expect(stockHead).toEqual(fastHead);
  });

  it.each([
    ['a malformed id', '/v1/titles/not-an-id', true, 400],
    ['an unknown title', '/v1/titles/tt9999999', true, 404],
    ['no key', '/v1/titles/tt0111161', false, 401],
  ])('%s', async (_name, path, withKey, status) => {
    const [fastAnswer, stockAnswer] = await both(path, {}, withKey);
    expect(fastAnswer.status).toBe(status);
    expect(stockAnswer).toEqual(fastAnswer);
  });
});
