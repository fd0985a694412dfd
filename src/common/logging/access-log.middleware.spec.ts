import { type Server, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { ApiError } from '../errors/api-error';
import { assignRequestId } from '../request-id/request-id';
import { recordResponseError } from '../errors/response-error-code';
import { LOGGED_URL_MAX, REDACTED } from './redact-url';
import { accessLog } from './access-log.middleware';

/** A server whose every request gets its id, passes the access log, then `respond`; the lines written. */
async function serve(level: string, respond: (res: import('node:http').ServerResponse) => void) {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  const middleware = accessLog(pino({ level }, sink));
  const server: Server = createServer((req, res) => {
    assignRequestId(req, res);
    middleware(req, res, () => respond(res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return { server, port, lines };
}

function get(port: number, path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; requestId: string | undefined }>((resolve, reject) => {
    request({ port, path, headers, host: '127.0.0.1' }, (res) => {
      res.resume();
      res.on('end', () =>
        resolve({ status: res.statusCode!, requestId: res.headers['x-request-id'] as string }),
      );
    })
      .on('error', reject)
      .end();
  });
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('accessLog', () => {
  let server: Server | undefined;
  afterEach(() => server?.close());

  it('writes one info line per answered request, with its id, method, redacted URL, status and time', async () => {
    const app = await serve('info', (res) => res.writeHead(404).end('{}'));
    server = app.server;
    const answer = await get(app.port, '/v1/titles/tt1?api_key=secret', {
      'X-Request-Id': 'trace-1',
      Authorization: 'Bearer mov_live_x',
    });
    await settle();
    expect(answer.requestId).toBe('trace-1');
    expect(app.lines).toHaveLength(1);
    expect(app.lines[0]).toMatchObject({
      level: 30,
      msg: 'request completed',
      req: {
        id: 'trace-1',
        method: 'GET',
        url: `/v1/titles/tt1?api_key=${REDACTED}`,
        remoteAddress: '127.0.0.1',
      },
      res: { statusCode: 404 },
    });
    expect(typeof app.lines[0].responseTime).toBe('number');
    expect(JSON.stringify(app.lines)).not.toContain('mov_live_x');
  });

  it('cuts a long URL at LOGGED_URL_MAX characters and logs its length as received', async () => {
    const app = await serve('info', (res) => res.writeHead(404).end('{}'));
    server = app.server;
    const path = `/v1/titles/tt${'1'.repeat(12_000)}`;
    await get(app.port, path);
    await get(app.port, '/v1/titles/tt1');
    await settle();
    expect(app.lines).toHaveLength(2);
    expect(app.lines[0].req).toEqual({
      id: expect.any(String),
      method: 'GET',
      url: path.slice(0, LOGGED_URL_MAX),
      remoteAddress: '127.0.0.1',
      url_length: path.length,
    });
    expect(app.lines[1].req).not.toHaveProperty('url_length');
  });

  it('logs a 5xx answer at error level, and still does when info lines are off', async () => {
    const app = await serve('warn', (res) => res.writeHead(500).end('{}'));
    server = app.server;
    const answer = await get(app.port, '/health');
    await settle();
    expect(app.lines).toEqual([
      expect.objectContaining({
        level: 50,
        msg: 'request errored',
        req: { id: answer.requestId, method: 'GET', url: '/health', remoteAddress: '127.0.0.1' },
        res: { statusCode: 500 },
      }),
    ]);
  });

  it('logs a 500 the service gives on purpose (/health while draining) at info', async () => {
    const app = await serve('info', (res) => {
      recordResponseError(
        res,
        'INTERNAL_ERROR',
        ApiError.expected('INTERNAL_ERROR', 'The service is shutting down.'),
      );
      res.writeHead(500).end('{}');
    });
    server = app.server;
    await get(app.port, '/health');
    await settle();
    expect(app.lines).toEqual([
      expect.objectContaining({ level: 30, msg: 'request completed', res: { statusCode: 500 } }),
    ]);
  });

  it('writes nothing for a successful request below the configured level', async () => {
    const app = await serve('warn', (res) => res.writeHead(200).end('{}'));
    server = app.server;
    await get(app.port, '/health');
    await settle();
    expect(app.lines).toEqual([]);
  });

  it('says when the connection closed before the answer was sent', async () => {
    const app = await serve('info', () => undefined);
    server = app.server;
    await new Promise<void>((resolve) => {
      const req = request({ port: app.port, path: '/slow', host: '127.0.0.1' });
      req.on('error', () => resolve());
      req.end(() => setTimeout(() => req.destroy(), 50));
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(app.lines).toEqual([
      expect.objectContaining({
        msg: 'request aborted',
        req: expect.objectContaining({ url: '/slow', remoteAddress: '127.0.0.1' }),
      }),
    ]);
  });
});
