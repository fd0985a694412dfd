import { type INestApplication, Logger } from '@nestjs/common';
import type { HttpsOptions } from '@nestjs/common/interfaces/external/https-options.interface';
import type { IncomingMessage, Server } from 'node:http';
import { type SecureVersion, Server as TlsServer } from 'node:tls';
import { APP_CONFIG, type AppConfig, type ServerConfig } from '../config/app-config';
import { answerClientError, answerConnect } from './client-error.handler';
import { DrainState } from './drain-state';
import { RoutedRequests } from './routed-requests';
import { type TlsCredentials, secureContextOptions } from './tls-credentials';

/**
 * Per-connection bounds (docs/operations.md): head in 10 s (slowloris), request in 30 s; an idle socket
 * with a request open closes after 40 s, above the 35 s database deadline so its 500 is answered.
 */
export const SERVER_TIMEOUTS = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  idleSocketTimeoutMs: 40_000,
} as const;

/**
 * The HTTPS server's options: the credentials, TLS 1.2 or newer, a handshake bounded like a head.
 * Nest passes them to `https.createServer` as they are (its type lists fewer fields than Node's).
 */
export function httpsServerOptions(
  credentials: TlsCredentials,
): HttpsOptions & { minVersion?: SecureVersion; handshakeTimeout: number } {
  return { ...secureContextOptions(credentials), handshakeTimeout: SERVER_TIMEOUTS.headersTimeoutMs };
}

const logger = new Logger('HTTP');
const debug = (message: string) => logger.debug(message);

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
  server.on('clientError', (error, socket) => answerClientError(error, socket, routed, debug));
  server.on('connect', (request, socket) => answerConnect(request, socket, debug));
  // An HTTP/1.1 request without Host is refused by `answerHeaders` in the envelope; Node's own
  // refusal is a bare 400 with no body, request id or security headers. (`http.createServer`'s
  // option of this name, which Node reads from the server per request; Nest creates the server.)
  (server as Server & { requireHostHeader: boolean }).requireHostHeader = false;
  // No route reads a body, so an expectation about it (anything but 100-continue) is ignored and
  // the request routed as usual; without this listener Node answers a bare 417 itself.
  server.on('checkExpectation', (request, response) => server.emit('request', request, response));
  // A TLS port cannot answer a plain-HTTP request (there is no TLS session to answer in): the
  // connection is closed, as for any failed handshake, and noted at debug level.
  if (server instanceof TlsServer) {
    server.on('tlsClientError', (error: Error & { code?: string }, socket) => {
      logger.debug(`Refused a connection before TLS was set up (${error.code ?? error.message})`);
      socket.destroy();
    });
  }
  // While draining, every answer closes its connection, so clients move to another replica. No
  // route reads a body, so a request that carries one is answered and its connection closed, and
  // says so: the body's framing may still fail after the answer, and nothing else is read after it.
  server.prependListener('request', (req, res) => {
    if (drain.draining || carriesBody(req)) res.setHeader('Connection', 'close');
  });
  return server;
}

/** Whether a request announces a body (its framing is read after the head, and may still fail). */
function carriesBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** `configureHttpServer` for a Nest application's server, with its configuration and drain state. */
export function configureAppServer(app: INestApplication): void {
  configureHttpServer(
    app.getHttpServer() as Server,
    app.get<AppConfig>(APP_CONFIG).server,
    app.get(DrainState),
  );
}
