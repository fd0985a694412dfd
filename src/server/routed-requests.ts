import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

/** A request the application has been given, and its response. */
export interface RoutedRequest {
  request: IncomingMessage;
  response: ServerResponse;
}

/**
 * Kept on the socket under a symbol: a WeakMap keyed by long-lived sockets made every request's entry
 * an ephemeron that each young-generation collection had to trace. Only the response is kept (it
 * knows its request): one shared 'close' listener, no closure or object per request.
 */
const LAST_ROUTED = Symbol('lastRoutedResponse');
type Watched = Duplex & { [LAST_ROUTED]?: ServerResponse };

/**
 * The request last routed on each connection while it is in flight: routes answer without reading
 * the body, so a body parse failure after the answer belongs to that request, not a new one. Once it
 * is answered and read to its end nothing can fail on its behalf, and it is let go: a kept-alive
 * connection holds no finished request, nor its headers (docs/operations.md, Bounds).
 */
export class RoutedRequests {
  /** Records every request the server emits, including those it emits for `checkExpectation`. */
  watch(server: Server): void {
    server.prependListener('request', (request: IncomingMessage, response: ServerResponse) => {
      (request.socket as Watched)[LAST_ROUTED] = response;
      response.on('close', releaseWhenRead);
    });
  }

  /** The request last given to the application on `socket`, while it is in flight. */
  lastOn(socket: Duplex): RoutedRequest | undefined {
    const response = (socket as Watched)[LAST_ROUTED];
    return response && { request: response.req, response };
  }
}

/** A response's 'close': its request is let go now, or once the rest of its body has been read. */
function releaseWhenRead(this: ServerResponse): void {
  if (this.req.complete) release(this);
  else this.req.once('end', () => release(this));
}

/** Forgets a finished request, unless a newer one on its connection took its place. */
function release(response: ServerResponse): void {
  const socket = response.req.socket as Watched | null;
  if (socket && socket[LAST_ROUTED] === response) socket[LAST_ROUTED] = undefined;
}
