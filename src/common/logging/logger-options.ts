import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Params } from 'nestjs-pino';
import { stdSerializers } from 'pino';
import type { AppConfig } from '../../config/app-config';
import { assignRequestId } from '../request-id/request-id';
import { redactUrl } from './redact-url';

/**
 * JSON logs, one line per request with its id. Request headers are never serialized, so neither the
 * API key nor the Authorization header can reach a log; `redact` guards against later changes. The
 * URL is logged with credentials redacted (`redactUrl`); every line about a request, at every level,
 * goes through this serializer.
 */
export function loggerOptions(config: AppConfig): Params {
  return {
    pinoHttp: {
      level: config.logLevel,
      genReqId: (req: IncomingMessage, res: ServerResponse) => assignRequestId(req, res),
      redact: { paths: ['req.headers.authorization', 'req.headers.cookie'], remove: true },
      serializers: {
        req: (req: { id: string; method: string; url: string }) => ({
          id: req.id,
          method: req.method,
          url: redactUrl(req.url),
        }),
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
        // A failed query's bound values (TypeORM's QueryFailedError) are client input: not logged.
        err: (error: Error) => withoutQueryParameters(stdSerializers.err(error)),
      },
      customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'error' : 'info'),
    },
  };
}

function withoutQueryParameters<T extends object>(serialized: T): T {
  const copy: T & { parameters?: unknown } = { ...serialized };
  delete copy.parameters;
  return copy;
}
