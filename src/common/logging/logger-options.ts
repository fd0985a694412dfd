import type { Params } from 'nestjs-pino';
import { type Logger, pino, stdSerializers } from 'pino';
import type { AppConfig } from '../../config/app-config';
import { redactKeys } from './key-redaction';

/**
 * The process's one pino logger: JSON lines at LOG_LEVEL. Request headers are never logged, so
 * neither the API key nor the Authorization header can reach a log; `redact` guards against later
 * changes. Whatever else a line holds that a client sent (a request id, a URL, an address from
 * X-Forwarded-For, an error's message), a key-shaped value in any encoding is replaced in the
 * written line (`redactKeys`): a key sent in the wrong place never reaches a log.
 */
export function rootLogger(config: Pick<AppConfig, 'logLevel'>): Logger {
  return pino({
    level: config.logLevel,
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie'], remove: true },
    serializers: { err: serializeError },
    hooks: { streamWrite: redactKeys },
  });
}

/**
 * nestjs-pino makes `root` Nest's logger (every `new Logger(context)` of the app writes through it).
 * Its per-request pino-http middleware is mounted on no route: the access line is written by
 * `AccessLogMiddleware`, because pino-http builds a child logger per request (serializing the
 * request up front, whatever the level) and nestjs-pino binds each request to an
 * AsyncLocalStorage, which puts a hook on every promise; together they cost about a third of the
 * lookup path's throughput (bench/RESULTS.md). Log lines about a request carry its id explicitly.
 */
export function loggerModuleParams(root: Logger): Params {
  // pino-http gives its child logger its own (wrapped) err serializer: named again so it wraps ours.
  return { pinoHttp: { logger: root, serializers: { err: serializeError } }, forRoutes: [] };
}

/** A failed query's bound values (TypeORM's QueryFailedError) are client input: never logged. */
function serializeError(error: Error): ReturnType<typeof stdSerializers.err> {
  const serialized: ReturnType<typeof stdSerializers.err> & { parameters?: unknown } = {
    ...stdSerializers.err(error),
  };
  delete serialized.parameters;
  return serialized;
}
