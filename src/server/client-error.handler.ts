import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { TLSSocket } from 'node:tls';
import { ERROR_CATALOGUE, type ErrorCode } from '../common/errors/error-catalogue';
import { errorEnvelope } from '../common/errors/error-envelope';
import { ACCEPTED_REQUEST_ID, REQUEST_ID_HEADER } from '../common/request-id/request-id';
import type { RoutedRequests } from './routed-requests';
import { SECURITY_HEADER_LINES } from './security-headers';

/** What Node's HTTP parser passes to the server's `clientError` event. */
export type ClientError = Error & { code?: string; rawPacket?: Buffer };

export interface Refusal {
  status: number;
  code: ErrorCode;
  message: string;
}

/**
 * Where a refusal's debug line goes: the API port's Nest logger, or the health listener's worker,
 * which runs without Nest (this file imports nothing of it, so that thread can load it).
 */
export type RefusalLog = (message: string) => void;
const quiet: RefusalLog = () => undefined;

/**
 * A request Node refuses before routing: 408, 414 and 431 carry VALIDATION_ERROR with their own status
 * (the contract has no code for them); a method Node does not know is 404 ROUTE_NOT_FOUND.
 */
export function refusalFor(error: ClientError): Refusal {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      // The head limit (16 KB) counts the request line; no line break yet means the URL is too long.
      return error.rawPacket && !error.rawPacket.includes('\r\n')
        ? { status: 414, code: 'VALIDATION_ERROR', message: 'The request URL is too long.' }
        : { status: 431, code: 'VALIDATION_ERROR', message: 'The request headers are too large.' };
    case 'HPE_INVALID_METHOD':
      return { status: 404, code: 'ROUTE_NOT_FOUND', message: ERROR_CATALOGUE.ROUTE_NOT_FOUND.message };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, code: 'VALIDATION_ERROR', message: 'The request did not arrive in time.' };
    default:
      return { status: 400, code: 'VALIDATION_ERROR', message: 'The request is not valid HTTP.' };
  }
}

/**
 * Node's `clientError` hook: the contract's envelope, never the raw packet in a log (it may hold a key).
 * One answer per request, in order: a body failure after the route answered gets none (docs/operations.md).
 */
export function answerClientError(
  error: ClientError,
  socket: Duplex,
  routed?: RoutedRequests,
  log: RefusalLog = quiet,
): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const previous = routed?.lastOn(socket);
  if (previous && !previous.request.complete) {
    log(`Closing after the answer: the request's body is not valid (${error.code ?? 'unknown'})`);
    closeAfterAnswer(previous.response, socket);
    return;
  }
  const refuse = () => socket.end(refusalBytes(error, socket, log));
  if (previous && !previous.response.writableEnded) previous.response.once('finish', refuse);
  else refuse();
}

function refusalBytes(error: ClientError, socket: Duplex, log: RefusalLog): string {
  const refusal = refusalFor(error);
  log(`Refused a request before routing (${error.code ?? 'unknown'}): ${refusal.status}`);
  return rawRefusal(refusal, randomUUID(), (socket as Partial<TLSSocket>).encrypted === true);
}

/**
 * A complete HTTP/1.1 answer in the error envelope, for a socket Express never sees: the request id,
 * the security headers every answer carries, and `Connection: close` (the caller then ends the socket).
 */
export function rawRefusal(refusal: Refusal, requestId: string, encrypted: boolean): string {
  const body = JSON.stringify(errorEnvelope(refusal.code, refusal.message, requestId));
  return (
    `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status]}\r\n` +
    'Content-Type: application/json; charset=utf-8\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    `${REQUEST_ID_HEADER}: ${requestId}\r\n` +
    SECURITY_HEADER_LINES[encrypted ? 'https' : 'http'] +
    'Connection: close\r\n\r\n' +
    body
  );
}

/**
 * Node's `connect` hook: without it CONNECT closes unanswered; it gets 404 ROUTE_NOT_FOUND (a method
 * other than GET/HEAD), then the connection closes.
 */
export function answerConnect(request: IncomingMessage, socket: Duplex, log: RefusalLog = quiet): void {
  const supplied = request.headers['x-request-id'];
  const requestId =
    typeof supplied === 'string' && ACCEPTED_REQUEST_ID.test(supplied) ? supplied : randomUUID();
  log('Refused a CONNECT request: 404');
  socket.on('error', () => socket.destroy());
  socket.end(
    rawRefusal(
      { status: 404, code: 'ROUTE_NOT_FOUND', message: ERROR_CATALOGUE.ROUTE_NOT_FOUND.message },
      requestId,
      (socket as Partial<TLSSocket>).encrypted === true,
    ),
  );
}

/** Ends the connection once `response` is written: no further request is read from it. */
function closeAfterAnswer(response: ServerResponse, socket: Duplex): void {
  if (response.writableEnded) socket.end();
  else if (!response.headersSent) response.setHeader('Connection', 'close');
  else response.once('finish', () => socket.end());
}
