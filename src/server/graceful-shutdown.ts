import { type INestApplication, Logger } from '@nestjs/common';
import type { Server } from 'node:http';
import type { ServerConfig } from '../config/app-config';
import { DrainState } from './drain-state';

const logger = new Logger('Shutdown');
/** Closing the pools and Redis after the server stopped gets this long before the exit is forced. */
const CLOSE_TIMEOUT_MS = 10_000;

/**
 * SIGTERM always waits out the grace period: load balancers learn of a terminating pod seconds later
 * and keep sending. SIGINT is a person at a terminal: it stops at once.
 */
export function gracePeriodFor(signal: string, config: ServerConfig) {
  if (signal === 'SIGINT') return { ms: 0, reason: 'interactive stop' };
  return { ms: config.shutdownGraceMs, reason: null };
}

/**
 * The rolling-deploy drain: readiness fails while requests are served for the grace period, then stop
 * accepting, finish in-flight (cut after `shutdownTimeoutMs`), close. docs/operations.md, Graceful drain.
 */
export async function drain(app: INestApplication, config: ServerConfig, signal: string): Promise<void> {
  app.get(DrainState).start();
  const server = app.getHttpServer() as Server;
  const grace = gracePeriodFor(signal, config);
  if (grace.reason) {
    logger.log(`${signal}: stopping now (${grace.reason}); in-flight requests finish first`);
  } else {
    logger.log(`${signal}: draining; /health answers 500, requests are served for ${grace.ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, grace.ms));
  }

  const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const cut = setTimeout(() => {
    logger.warn(`In-flight requests did not finish within ${config.shutdownTimeoutMs} ms; closing them`);
    server.closeAllConnections();
  }, config.shutdownTimeoutMs);
  await stopped;
  clearTimeout(cut);
  logger.log('Stopped serving; closing the database');
  await app.close();
}

/**
 * SIGTERM or SIGINT starts `drain` and exits 0 when it is done (1 if closing failed or hung);
 * a second signal exits at once with 1.
 */
export function drainOnSignals(
  app: INestApplication,
  config: ServerConfig,
  exit: (code: number) => void = (code) => process.exit(code),
): void {
  let draining = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (draining) {
      logger.warn(`${signal} during the drain: exiting now`);
      exit(1);
      return;
    }
    draining = true;
    const deadline = config.shutdownGraceMs + config.shutdownTimeoutMs + CLOSE_TIMEOUT_MS;
    setTimeout(() => {
      logger.error(`The shutdown did not finish within ${deadline} ms; exiting`);
      exit(1);
    }, deadline).unref();
    drain(app, config, signal).then(
      () => exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'The shutdown failed');
        exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}
