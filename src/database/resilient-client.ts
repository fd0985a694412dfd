import { Logger } from '@nestjs/common';
import { Client, type ClientConfig, type Pool } from 'pg';

const logger = new Logger('Database');

/** Logs a failed connection (one line, no stack): the pool or request that used it already failed. */
export function logConnectionError(error: Error): void {
  logger.warn(`A database connection failed: ${error.message}`);
}

/**
 * Handles its own `error` from birth: pg-pool listens only on idle clients, so a checked-out one
 * dying between queries would crash the process. Its next query still rejects (500).
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
