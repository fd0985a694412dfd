import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

/** A request the application has been given, and its response. */
export interface RoutedRequest {
  request: IncomingMessage;
  response: ServerResponse;
}

/**
 * The request last routed on each connection: routes answer without reading the body, so a body
 * parse failure after the answer belongs to that request, not a new one.
 */
export class RoutedRequests {
  private readonly bySocket = new WeakMap<Duplex, RoutedRequest>();

  /** Records every request the server emits, including those it emits for `checkExpectation`. */
  watch(server: Server): void {
    server.prependListener('request', (request, response) =>
      this.bySocket.set(request.socket, { request, response }),
    );
  }

  /** The request last given to the application on `socket`, if any. */
  lastOn(socket: Duplex): RoutedRequest | undefined {
    return this.bySocket.get(socket);
  }
}
