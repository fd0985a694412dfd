import type { DataSourceOptions } from 'typeorm';
import { PGliteDriver } from 'typeorm-pglite';
import { MIGRATIONS } from '../../migrations';
import type { DatabaseConfig } from '../config/app-config';
import { embeddedEngineOptions } from './embedded-engine-options';
import { ENTITIES } from './entities';
import { logConnectionError, ResilientClient } from './resilient-client';

/** The server cancels a statement after this long (sessions doing maintenance work may lift it). */
const STATEMENT_TIMEOUT_MS = 30_000;

/**
 * Options of every pg pool the service creates. Bounds keep a sick or unreachable database from
 * hanging requests or probes: connecting, each statement (server side) and each query (client side:
 * `query_timeout` answers even when the server cannot, in a partition; it is longer than the
 * statement timeout so a reachable server always cancels first). TCP keep-alive detects dead idle
 * connections. `Client` makes every connection handle its own errors (see `ResilientClient`).
 */
export const POSTGRES_POOL = {
  max: 10,
  connectionTimeoutMillis: 5_000,
  statement_timeout: STATEMENT_TIMEOUT_MS,
  query_timeout: STATEMENT_TIMEOUT_MS + 5_000,
  idle_in_transaction_session_timeout: 60_000,
  keepAlive: true,
  keepAliveInitialDelayMillis: 10_000,
  Client: ResilientClient,
};

export function dataSourceOptions(database: DatabaseConfig): DataSourceOptions {
  const common = {
    type: 'postgres' as const,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsTableName: 'schema_migrations',
    synchronize: false,
    migrationsRun: false,
    logging: false,
  };
  if (database.kind === 'postgres') {
    return {
      ...common,
      url: database.url,
      extra: POSTGRES_POOL,
      applicationName: 'catalog-api',
      poolErrorHandler: logConnectionError,
    };
  }
  return { ...common, driver: new PGliteDriver(embeddedEngineOptions(database.dataDir)).driver };
}
