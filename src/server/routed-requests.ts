import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

/** A request the application has been given, and its response. */
export interface RoutedRequest {
  request: IncomingMessage;
  response: ServerResponse;
}

/**
 * Kept on the socket under a symbol: a WeakMap keyed by long-lived sockets made every request's entry
 * an ephemeron that each young-generation collection had to trace.
 */
const LAST_ROUTED = Symbol('lastRoutedRequest');
type Watched = Duplex & { [LAST_ROUTED]?: RoutedRequest };

/**
 * The request last routed on each connection: routes answer without reading the body, so a body
 * parse failure after the answer belongs to that request, not a new one.
 */
export class RoutedRequests {
  /** Records every request the server emits, including those it emits for `checkExpectation`. */
  watch(server: Server): void {
    server.prependListener('request', (request, response) => {
      (request.socket as Watched)[LAST_ROUTED] = { request, response };
    });
  }

  /** The request last given to the application on `socket`, if any. */
  lastOn(socket: Duplex): RoutedRequest | undefined {
    return (socket as Watched)[LAST_ROUTED];
  }
}
