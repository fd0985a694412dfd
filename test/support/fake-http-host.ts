import type { ServerResponse } from 'node:http';
import type { ArgumentsHost } from '@nestjs/common';
import { assignRequestId } from '../../src/common/request-id/request-id';

/**
 * An ArgumentsHost over a fake Express request (with its id assigned) and response, for the unit
 * tests of exception filters: the response records its status, JSON body and headers.
 */
export function fakeHttpHost(initialHeaders: ReadonlyArray<[string, string]> = []) {
  const headers = new Map<string, string>(initialHeaders);
  const res = {
    headersSent: false,
    statusCode: 200,
    body: undefined as unknown,
    setHeader: (name: string, value: string) => headers.set(name, value),
    removeHeader: (name: string) => headers.delete(name),
    status(code: number) {
      this.statusCode = code;
      return this;
    },
    json(body: unknown) {
      this.body = body;
      return this;
    },
    end: jest.fn(),
  };
  const req = { headers: { 'x-request-id': 'req-1' } };
  // As `answerHeaders` does first for every request.
  assignRequestId(req as never, res as unknown as ServerResponse);
  const host = {
    switchToHttp: () => ({ getRequest: () => req, getResponse: () => res }),
  } as unknown as ArgumentsHost;
  return { host, req, res, headers };
}
