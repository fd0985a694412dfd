import { Logger } from '@nestjs/common';
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

const logger = new Logger('HTTP');

/**
 * The answer to a request Node refuses before routing. The contract has codes for none of 408, 414
 * and 431: they carry VALIDATION_ERROR (the client's request is at fault) with their own status. A
 * method Node does not know (`get`, `FOO`) is "a method other than GET/HEAD": 404 ROUTE_NOT_FOUND.
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
 * The server's `clientError` hook: Node would answer a bare 400/431 with no body and no request id.
 * Where the socket is still writable, the answer is the contract's error envelope with a generated
 * X-Request-Id and the security headers every answer carries, then the connection closes. The raw
 * packet is never logged (it may hold a key).
 *
 * Each request gets exactly one answer, in order (`routed` knows the request last given to the
 * application on this connection). A failure in the body of that request gets no answer of its
 * own: the request has (or will have) the route's answer, and a second one would be read as the
 * answer to the client's next request; the connection closes once the route's answer is written.
 * A refused request pipelined behind one still being answered is refused after that answer.
 */
export function answerClientError(error: ClientError, socket: Duplex, routed?: RoutedRequests): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const previous = routed?.lastOn(socket);
  if (previous && !previous.request.complete) {
    logger.debug(`Closing after the answer: the request's body is not valid (${error.code ?? 'unknown'})`);
    closeAfterAnswer(previous.response, socket);
    return;
  }
  const refuse = () => socket.end(refusalBytes(error, socket));
  if (previous && !previous.response.writableEnded) previous.response.once('finish', refuse);
  else refuse();
}

function refusalBytes(error: ClientError, socket: Duplex): string {
  const refusal = refusalFor(error);
  logger.debug(`Refused a request before routing (${error.code ?? 'unknown'}): ${refusal.status}`);
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
 * The server's `connect` hook: Node parses CONNECT (a proxy's tunnel request) itself and, with no
 * listener, closes the connection unanswered. It is "a method other than GET/HEAD": 404
 * ROUTE_NOT_FOUND in the envelope, with the client's X-Request-Id when acceptable, then close.
 */
export function answerConnect(request: IncomingMessage, socket: Duplex): void {
  const supplied = request.headers['x-request-id'];
  const requestId =
    typeof supplied === 'string' && ACCEPTED_REQUEST_ID.test(supplied) ? supplied : randomUUID();
  logger.debug('Refused a CONNECT request: 404');
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
