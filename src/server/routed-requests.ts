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
 * The request last routed on each connection while it is in flight: routes answer without reading
 * the body, so a body parse failure after the answer belongs to that request, not a new one. Once it
 * is answered and read to its end nothing can fail on its behalf, and it is let go: a kept-alive
 * connection holds no finished request, nor its headers (docs/operations.md, Bounds).
 */
export class RoutedRequests {
  /** Records every request the server emits, including those it emits for `checkExpectation`. */
  watch(server: Server): void {
    server.prependListener('request', (request, response) => {
      const routed: RoutedRequest = { request, response };
      (request.socket as Watched)[LAST_ROUTED] = routed;
      response.once('close', () => {
        if (request.complete) release(routed);
        else request.once('end', () => release(routed));
      });
    });
  }

  /** The request last given to the application on `socket`, while it is in flight. */
  lastOn(socket: Duplex): RoutedRequest | undefined {
    return (socket as Watched)[LAST_ROUTED];
  }
}

/** Forgets a finished request, unless a newer one on its connection took its place. */
function release(routed: RoutedRequest): void {
  const socket = routed.request.socket as Watched | null;
  if (socket && socket[LAST_ROUTED] === routed) socket[LAST_ROUTED] = undefined;
}
