import type { LoggerService } from '@nestjs/common';

/**
 * Nest's start-up contexts (module init, route mapping, start): about thirty lines no operator acts on,
 * which at info bury the line saying where the service listens.
 */
const FRAMEWORK_START_CONTEXTS = new Set([
  'NestFactory',
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestApplication',
]);

/** Nest passes the context as the last argument of every call. */
const isFrameworkStartLine = (params: unknown[]): boolean =>
  params.length > 0 && FRAMEWORK_START_CONTEXTS.has(params[params.length - 1] as string);

/** The application's logger, with Nest's own start-up lines (logged at info) written at debug. */
export class FrameworkStartLinesAtDebug implements LoggerService {
  constructor(private readonly logger: LoggerService) {}

  log(message: unknown, ...params: unknown[]): void {
    if (isFrameworkStartLine(params)) this.logger.debug?.(message, ...params);
    else this.logger.log(message, ...params);
  }

  error(message: unknown, ...params: unknown[]): void {
    this.logger.error(message, ...params);
  }

  warn(message: unknown, ...params: unknown[]): void {
    this.logger.warn(message, ...params);
  }

  debug(message: unknown, ...params: unknown[]): void {
    this.logger.debug?.(message, ...params);
  }

  verbose(message: unknown, ...params: unknown[]): void {
    this.logger.verbose?.(message, ...params);
  }

  fatal(message: unknown, ...params: unknown[]): void {
    (this.logger.fatal ?? this.logger.error).call(this.logger, message, ...params);
  }
}
