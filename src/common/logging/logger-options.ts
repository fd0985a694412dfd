import type { Params } from 'nestjs-pino';
import { type Logger, pino, stdSerializers } from 'pino';
import type { AppConfig } from '../../config/app-config';
import { redactKeys } from './key-redaction';
import { stdoutLog } from './stdout-log';

/**
 * The one pino logger. Request headers are never logged, and key-shaped text in any encoding is
 * replaced in every written line (`redactKeys`). docs/operations.md, Logs and secrets. It writes to
 * stdout through a bounded buffer (`stdoutLog`): a stalled reader costs dropped lines, not memory.
 */
export function rootLogger(config: Pick<AppConfig, 'logLevel'>): Logger {
  const stdout = stdoutLog();
  const logger = pino(
    {
      level: config.logLevel,
      redact: { paths: ['req.headers.authorization', 'req.headers.cookie'], remove: true },
      serializers: { err: serializeError },
      hooks: { streamWrite: redactKeys },
    },
    stdout.destination,
  );
  stdout.reportThrough(logger);
  return logger;
}

/**
 * The per-request pino-http middleware is mounted on no route: with nestjs-pino's AsyncLocalStorage it
 * cost a third of lookup throughput (bench/RESULTS.md). Request lines carry their id explicitly.
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
