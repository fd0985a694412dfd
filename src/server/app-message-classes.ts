import { IncomingMessage, ServerResponse } from 'node:http';
import type { Express } from 'express';

/** The classes an `http.createServer` / `https.createServer` option object names for its requests and responses. */
export interface MessageClasses {
  IncomingMessage: typeof IncomingMessage;
  ServerResponse: typeof ServerResponse;
}

/**
 * Request and response classes whose objects are born with the Express app's prototypes, for the
 * server's `IncomingMessage` and `ServerResponse` options. Each extends Node's class, and its
 * prototype extends the app's (`app.request`, `app.response`, Express's app-specific extension
 * points), which it then becomes: Express finds every request and response already on the app's
 * prototype, and its per-request `Object.setPrototypeOf` changes nothing.
 *
 * Why: on Node 20 (V8 11) an object whose prototype was changed gets a hidden class of its own, and
 * so does every property added to it after, for each request and response anew. Every read or write
 * of them (Node's, Express's, Nest's and the service's: about 130 a request) then missed V8's inline
 * caches and took the runtime's slow path (`bench/ic-misses.ts`, bench/RESULTS.md). Node 24 shares
 * the classes either way. Call once per app, before its server is made.
 */
export function appMessageClasses(app: Express): MessageClasses {
  class AppRequest extends IncomingMessage {}
  class AppResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {}
  Object.setPrototypeOf(AppRequest.prototype, app.request);
  Object.setPrototypeOf(AppResponse.prototype, app.response);
  const prototypes = app as unknown as { request: object; response: object };
  prototypes.request = AppRequest.prototype;
  prototypes.response = AppResponse.prototype;
  return { IncomingMessage: AppRequest, ServerResponse: AppResponse };
}
