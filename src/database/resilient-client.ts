import { Logger } from '@nestjs/common';
import { Client, type ClientConfig, type Pool } from 'pg';

const logger = new Logger('Database');

/** Logs a failed connection (one line, no stack): the pool or request that used it already failed. */
export function logConnectionError(error: Error): void {
  logger.warn(`A database connection failed: ${error.message}`);
}

/**
 * A pg `Client` that handles its own `error` event from birth. pg-pool listens on a client only
 * while it is idle; a checked-out client whose connection dies between two queries (a failover,
 * `pg_terminate_backend`, a network reset) would otherwise emit an unhandled 'error' and end the
 * process. The work using the client still fails: its next query rejects (the client is no longer
 * queryable), the request answers 500, and the pool discards the client on release.
 * Given to pools through pg-pool's documented `Client` option (see `POSTGRES_POOL`).
 */
export class ResilientClient extends Client {
  constructor(config?: string | ClientConfig) {
    super(config);
    this.on('error', logConnectionError);
  }
}

/** Pool-level errors (an idle client's connection failed) are logged, never thrown. */
export function hardenPool<T extends Pool>(pool: T): T {
  pool.on('error', logConnectionError);
  return pool;
}
