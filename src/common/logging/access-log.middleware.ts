import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { responseErrorExpected } from '../errors/response-error-code';
import { requestIdOf } from '../request-id/request-id';
import { requestTraceId } from './request-trace';
import { LOGGED_URL_MAX, loggedUrl } from './redact-url';

/** Express adds `ip`: the client address it settles on under the `trust proxy` setting. */
type Request = IncomingMessage & { originalUrl?: string; ip?: string };

/** What one access line says about its request (its fields, without pino's own). */
export interface AccessLine {
  req: {
    id: string;
    method: string | undefined;
    /** Redacted, and cut at `LOGGED_URL_MAX` characters. */
    url: string;
    remoteAddress: string | undefined;
    /** The length of the URL as received, when longer than `LOGGED_URL_MAX`. */
    url_length?: number;
  };
  res: { statusCode: number };
  responseTime: number;
  /** The request's trace, with tracing on (OTEL_EXPORTER_OTLP_ENDPOINT). */
  trace_id?: string;
}

/** What the middleware notes of a request when it arrives, for its line once answered. */
interface Arrival {
  req: Request;
  id: string;
  started: number;
  peerAddress: string | undefined;
}

/** The access-log middleware of the application's logger (provided by `LoggingModule`). */
export const ACCESS_LOG = Symbol('ACCESS_LOG');

/** Kept on the response under a symbol: one listener function serves every response, no closure per request. */
const ARRIVAL = Symbol('accessLogArrival');
type Noted = ServerResponse & { [ARRIVAL]?: Arrival };

/**
 * One JSON line per request once answered (`request completed`; `request errored` for a 5xx not
 * given on purpose) or abandoned (`request aborted`), with credentials redacted from the URL and the
 * URL cut at `LOGGED_URL_MAX` characters (the received length in `url_length` when longer).
 */
export function accessLog(logger: Logger) {
  // A response emits 'close' once: after 'finish' when it was sent, or alone when the connection
  // closed first.
  function logAnswer(this: Noted): void {
    const arrival = this[ARRIVAL];
    if (arrival === undefined) return;
    const level = failed(this) ? 'error' : 'info';
    if (!logger.isLevelEnabled(level)) return;
    const { req } = arrival;
    const url = req.originalUrl ?? req.url ?? '';
    const line: AccessLine = {
      req: {
        id: arrival.id,
        method: req.method,
        url: loggedUrl(url),
        remoteAddress: req.ip ?? arrival.peerAddress,
      },
      res: { statusCode: this.statusCode },
      responseTime: Date.now() - arrival.started,
    };
    if (url.length > LOGGED_URL_MAX) line.req.url_length = url.length;
    const traceId = requestTraceId(req);
    if (traceId !== undefined) line.trace_id = traceId;
    logger[level](line, accessMessage(this));
  }

  return function accessLogMiddleware(req: Request, res: Noted, next: () => void): void {
    res[ARRIVAL] = {
      req,
      id: requestIdOf(req),
      started: Date.now(),
      // Read now: the socket keeps its peer's address once asked, so an aborted request still has it.
      peerAddress: req.socket.remoteAddress,
    };
    res.on('close', logAnswer);
    next();
  };
}

/** A 5xx, unless the service gave it on purpose (/health while draining: the drain logs itself). */
function failed(res: ServerResponse): boolean {
  return res.statusCode >= 500 && !responseErrorExpected(res);
}

function accessMessage(res: ServerResponse): string {
  if (!res.writableFinished) return 'request aborted';
  return failed(res) ? 'request errored' : 'request completed';
}
