import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { responseErrorExpected } from '../errors/response-error-code';
import { requestIdOf } from '../request-id/request-id';
import { requestTraceId } from './request-trace';
import { redactUrl } from './redact-url';

/** Express adds `ip`: the client address it settles on under the `trust proxy` setting. */
type Request = IncomingMessage & { originalUrl?: string; ip?: string };

/** What one access line says about its request (its fields, without pino's own). */
export interface AccessLine {
  req: { id: string; method: string | undefined; url: string; remoteAddress: string | undefined };
  res: { statusCode: number };
  responseTime: number;
  /** The request's trace, with tracing on (OTEL_EXPORTER_OTLP_ENDPOINT). */
  trace_id?: string;
}

/**
 * One JSON line per request once answered (`request completed`; `request errored` for a 5xx not
 * given on purpose) or abandoned (`request aborted`), with credentials redacted from the URL.
 */
export function accessLog(logger: Logger) {
  return function accessLogMiddleware(req: Request, res: ServerResponse, next: () => void): void {
    const started = Date.now();
    const id = requestIdOf(req);
    // Read now: the socket keeps its peer's address once asked, so an aborted request still has it.
    const peerAddress = req.socket.remoteAddress;
    // A response emits 'close' once: after 'finish' when it was sent, or alone when the connection
    // closed first.
    res.once('close', () => {
      const level = failed(res) ? 'error' : 'info';
      if (!logger.isLevelEnabled(level)) return;
      const line: AccessLine = {
        req: {
          id,
          method: req.method,
          url: redactUrl(req.originalUrl ?? req.url ?? ''),
          remoteAddress: req.ip ?? peerAddress,
        },
        res: { statusCode: res.statusCode },
        responseTime: Date.now() - started,
      };
      const traceId = requestTraceId(req);
      if (traceId !== undefined) line.trace_id = traceId;
      logger[level](line, accessMessage(res));
    });
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
