import type { INestApplication } from '@nestjs/common';
import type { Server } from 'node:http';
import { APP_CONFIG, type AppConfig, type ServerConfig } from '../config/app-config';
import { answerClientError } from './client-error.handler';
import { DrainState } from './drain-state';
import { RoutedRequests } from './routed-requests';

/**
 * Fixed bounds on what one connection may cost (docs/operations.md). A request head must arrive
 * within 10 s (slowloris) and the whole request within 30 s; a socket with no traffic while a
 * request is open is closed after 40 s, above the client-side database deadline (35 s) so a slow
 * database still gets its 500 answered.
 */
export const SERVER_TIMEOUTS = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  idleSocketTimeoutMs: 40_000,
} as const;

/**
 * Applies the timeouts, the connection bound, the refusal hook, the `Expect` reading and the drain
 * to a Node server.
 */
export function configureHttpServer(server: Server, config: ServerConfig, drain: DrainState): Server {
  server.headersTimeout = SERVER_TIMEOUTS.headersTimeoutMs;
  server.requestTimeout = SERVER_TIMEOUTS.requestTimeoutMs;
  server.keepAliveTimeout = config.keepAliveTimeoutMs;
  server.setTimeout(SERVER_TIMEOUTS.idleSocketTimeoutMs);
  server.maxConnections = config.maxConnections;
  const routed = new RoutedRequests();
  routed.watch(server);
  server.on('clientError', (error, socket) => answerClientError(error, socket, routed));
  // No route reads a body, so an expectation about it (anything but 100-continue) is ignored and
  // the request routed as usual; without this listener Node answers a bare 417 itself.
  server.on('checkExpectation', (request, response) => server.emit('request', request, response));
  // While draining, every answer closes its connection, so clients move to another replica.
  server.prependListener('request', (_req, res) => {
    if (drain.draining) res.setHeader('Connection', 'close');
  });
  return server;
}

/** `configureHttpServer` for a Nest application's server, with its configuration and drain state. */
export function configureAppServer(app: INestApplication): void {
  configureHttpServer(
    app.getHttpServer() as Server,
    app.get<AppConfig>(APP_CONFIG).server,
    app.get(DrainState),
  );
}
