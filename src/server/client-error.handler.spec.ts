import { PassThrough } from 'node:stream';
import { type ClientError, answerClientError, refusalFor } from './client-error.handler';

const parserError = (code: string, rawPacket?: string): ClientError =>
  Object.assign(new Error(code), {
    code,
    rawPacket: rawPacket === undefined ? undefined : Buffer.from(rawPacket),
  });

describe('refusals before routing', () => {
  it.each([
    [parserError('HPE_HEADER_OVERFLOW', 'GET /health HTTP/1.1\r\nX-Big: aaaa'), 431, 'VALIDATION_ERROR'],
    [parserError('HPE_HEADER_OVERFLOW', 'GET /aaaaaaaaaaaaaaaa'), 414, 'VALIDATION_ERROR'],
    [parserError('HPE_INVALID_METHOD'), 404, 'ROUTE_NOT_FOUND'],
    [parserError('ERR_HTTP_REQUEST_TIMEOUT'), 408, 'VALIDATION_ERROR'],
    [parserError('HPE_INVALID_HEADER_TOKEN'), 400, 'VALIDATION_ERROR'],
  ])('maps %p to %i %s', (error, status, code) => {
    expect(refusalFor(error)).toMatchObject({ status, code });
  });

  it('writes the envelope with a generated request id and closes, never echoing the packet', () => {
    const socket = new PassThrough();
    let written = '';
    socket.on('data', (chunk: Buffer) => (written += chunk.toString()));
    answerClientError(
      parserError('HPE_HEADER_OVERFLOW', 'GET / HTTP/1.1\r\nAuthorization: Bearer mov_live_x'),
      socket,
    );
    const [head, body] = written.split('\r\n\r\n');
    const requestId = /X-Request-Id: (\S+)/.exec(head)?.[1];
    expect(head).toMatch(/^HTTP\/1\.1 431 /);
    expect(head).toContain('Connection: close');
    expect(head).toContain('X-Content-Type-Options: nosniff');
    expect(head).toContain('Cache-Control: no-store');
    expect(head).not.toContain('Strict-Transport-Security');
    expect(JSON.parse(body)).toEqual({
      error: { code: 'VALIDATION_ERROR', message: expect.any(String), request_id: requestId },
    });
    expect(written).not.toContain('mov_live_');
  });

  it('destroys a socket that can no longer be written', () => {
    const socket = new PassThrough();
    socket.end();
    const destroy = jest.spyOn(socket, 'destroy');
    answerClientError(parserError('ECONNRESET'), socket);
    expect(destroy).toHaveBeenCalled();
  });
});
