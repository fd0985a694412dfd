import express, { type Request, type Response } from 'express';
import { type IncomingMessage, createServer } from 'node:http';
import request from 'supertest';
import { ByteString } from '../envelope';
import { endAnswer, holdAnswerHeaders, setAnswerHeader } from './answer-head';

const BODY = Buffer.from('{"data":[]}');

/** An app whose responses hold answer headers, answering `/` with `handler`. */
function holdingApp(handler: (req: Request, res: Response) => void) {
  const app = express().disable('x-powered-by').set('etag', false);
  holdAnswerHeaders(app);
  return app.get('/', handler);
}

/**
 * The header names of an answer as written, in order, without those Node adds by itself (superagent
 * keeps Node's message, untyped, as `res`).
 */
function writtenNames(res: request.Response): string[] {
  const raw = (res as unknown as { res: IncomingMessage }).res.rawHeaders;
  const names = raw.filter((_, i) => i % 2 === 0);
  return names.filter((name) => !['Date', 'Connection', 'Keep-Alive'].includes(name));
}

describe('answer headers', () => {
  it('writes the held headers and the length with the status line, in the order they were set', async () => {
    let namesLeftInNodesList: string[] | undefined;
    const app = holdingApp((_req, res) => {
      setAnswerHeader(res, 'Cache-Control', 'no-store');
      setAnswerHeader(res, 'X-Request-Id', 'r-1');
      // Set again in another case: it keeps its place and takes the new value and name, as setHeader does.
      setAnswerHeader(res, 'cache-control', 'private, max-age=0, must-revalidate');
      endAnswer(res, 203, BODY);
      namesLeftInNodesList = res.getHeaderNames();
    });
    const res = await request(app).get('/').expect(203);
    expect(writtenNames(res)).toEqual(['cache-control', 'X-Request-Id', 'Content-Length']);
    expect(res.headers['cache-control']).toBe('private, max-age=0, must-revalidate');
    expect(res.headers['x-request-id']).toBe('r-1');
    expect(res.headers['content-length']).toBe(String(BODY.length));
    expect(res.text).toBe(BODY.toString());
    // Written with the status line, not through Node's header list.
    expect(namesLeftInNodesList).toEqual([]);
  });

  it("writes a byte string's bytes, one a character, with their length in the same one head", async () => {
    const text = '{"data":[{"title":"Amélie — 東京"}]}';
    const app = holdingApp((_req, res) => {
      setAnswerHeader(res, 'X-Request-Id', 'r-7');
      endAnswer(res, 200, new ByteString(Buffer.from(text, 'utf8').toString('latin1')));
    });
    const res = await request(app).get('/').buffer(true).expect(200);
    expect(writtenNames(res)).toEqual(['X-Request-Id', 'Content-Length']);
    expect(res.headers['content-length']).toBe(String(Buffer.byteLength(text)));
    expect(res.text).toBe(text);
  });

  it('writes the held headers through before any other header method, so reads see them and later writes win', async () => {
    let etagSeen: unknown;
    const app = holdingApp((_req, res) => {
      setAnswerHeader(res, 'Cache-Control', 'no-store');
      setAnswerHeader(res, 'ETag', '"v1"');
      etagSeen = res.getHeader('etag');
      res.setHeader('Cache-Control', 'no-cache');
      setAnswerHeader(res, 'Vary', 'Authorization');
      res.json({ data: [] });
    });
    const res = await request(app).get('/').expect(200);
    expect(etagSeen).toBe('"v1"');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers.etag).toBe('"v1"');
    expect(res.headers.vary).toBe('Authorization');
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  });

  it("gives Express's send the held Content-Type", async () => {
    const app = holdingApp((_req, res) => {
      setAnswerHeader(res, 'Content-Type', 'application/json');
      res.send('{"data":[]}');
    });
    const res = await request(app).get('/').expect(200);
    // Without it Express would have sent the text as text/html.
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  });

  it('removes a held header that is removed', async () => {
    const app = holdingApp((_req, res) => {
      setAnswerHeader(res, 'ETag', '"v1"');
      res.removeHeader('ETag');
      endAnswer(res, 200, BODY);
    });
    const res = await request(app).get('/').expect(200);
    expect(res.headers.etag).toBeUndefined();
    expect(res.headers['content-length']).toBe(String(BODY.length));
  });

  it('keeps a header set another way before the held ones', async () => {
    const app = holdingApp((_req, res) => {
      res.setHeader('Connection', 'close');
      setAnswerHeader(res, 'X-Request-Id', 'r-2');
      endAnswer(res, 200, BODY);
    });
    const res = await request(app).get('/').expect(200);
    expect(res.headers.connection).toBe('close');
    expect(res.headers['x-request-id']).toBe('r-2');
    expect(res.text).toBe(BODY.toString());
  });

  it("runs a middleware's wrapper of writeHead: the answer carries its header and the held ones", async () => {
    const app = express().disable('x-powered-by');
    holdAnswerHeaders(app);
    app.use((_req: Request, res: Response, next: () => void) => {
      const writeHead = res.writeHead;
      res.writeHead = function timed(this: Response, ...args: unknown[]) {
        this.setHeader('X-Response-Time', '1ms');
        return (writeHead as (...args: unknown[]) => Response).apply(this, args);
      } as Response['writeHead'];
      next();
    });
    app.get('/', (_req, res) => {
      setAnswerHeader(res, 'X-Request-Id', 'r-6');
      endAnswer(res, 200, BODY);
    });
    const res = await request(app).get('/').expect(200);
    expect(res.headers['x-response-time']).toBe('1ms');
    expect(res.headers['x-request-id']).toBe('r-6');
    expect(res.headers['content-length']).toBe(String(BODY.length));
  });

  it('answers HEAD with the length and no body', async () => {
    const app = express().disable('x-powered-by');
    holdAnswerHeaders(app);
    app.head('/', (_req, res) => {
      setAnswerHeader(res, 'X-Request-Id', 'r-3');
      endAnswer(res, 200, BODY);
    });
    const res = await request(app).head('/').expect(200);
    expect(res.headers['x-request-id']).toBe('r-3');
    expect(res.headers['content-length']).toBe(String(BODY.length));
    expect(res.text).toBeUndefined();
  });

  it('refuses a header after the answer was written, as setHeader does', async () => {
    let refusal: unknown;
    const app = holdingApp((_req, res) => {
      endAnswer(res, 200, BODY);
      try {
        setAnswerHeader(res, 'X-Late', '1');
      } catch (error) {
        refusal = error;
      }
    });
    await request(app).get('/').expect(200);
    expect(refusal).toMatchObject({ code: 'ERR_HTTP_HEADERS_SENT' });
  });

  it('sets at once on a response not set up to hold (a bare node:http server, an app without it)', async () => {
    const seen: string[][] = [];
    const server = createServer((_req, res) => {
      setAnswerHeader(res, 'X-Request-Id', 'r-4');
      seen.push(res.getHeaderNames());
      res.end();
    });
    const app = express().get('/', (_req, res) => {
      setAnswerHeader(res, 'X-Request-Id', 'r-5');
      seen.push(res.getHeaderNames());
      res.end();
    });
    expect((await request(server).get('/')).headers['x-request-id']).toBe('r-4');
    expect((await request(app).get('/')).headers['x-request-id']).toBe('r-5');
    expect(seen).toEqual([['x-request-id'], expect.arrayContaining(['x-request-id'])]);
  });
});
