import type { DataSourceOptions } from 'typeorm';
import { PGliteDriver } from 'typeorm-pglite';
import { MIGRATIONS } from '../../migrations';
import type { DatabaseConfig } from '../config/app-config';
import { embeddedEngineOptions } from './embedded-engine-options';
import { logConnectionError, ResilientClient } from './resilient-client';

/**
 * Options of every pg pool the service creates. None is a start-up parameter PostgreSQL would apply
 * to the session (a transaction pooler such as PgBouncer refuses those, and a session setting would
 * outlive the transaction there): request-path statements carry their own server deadline
 * (`DeadlineQuery`, 2 s); TypeORM's (keys, migrations) get the server's default. Bounds keep a sick
 * or unreachable database from hanging requests or probes: connecting, and each query on the client
 * (`query_timeout` answers even when the server cannot, in a partition; request-path statements
 * replace it with 2.5 s). TCP keep-alive detects dead idle connections. `Client` makes every
 * connection handle its own errors (see `ResilientClient`). An idle connection is kept a minute
 * (pg's default is 10 s): each new one costs the server a backend start and a transaction, and
 * traffic that pauses for seconds would otherwise pay that again after every pause.
 */
export const POSTGRES_POOL = {
  max: 10,
  idleTimeoutMillis: 60_000,
  connectionTimeoutMillis: 2_000,
  query_timeout: 35_000,
  keepAlive: true,
  keepAliveInitialDelayMillis: 10_000,
  Client: ResilientClient,
};

/**
 * Connections one replica holds at most, by pool (DATABASE_POOL_SIZE, DATABASE_SEARCH_POOL_SIZE):
 * the main pool (lookups, lists, limits, /health, keys) and the search pool, plus the change feed's
 * one session (`ChangeFeed`). docs/scaling.md's connection budget and the manifests' comments state the
 * same total.
 */
export const DEFAULT_POOL_SIZES = { main: 10, search: 4 };

/** The application's entities, listed by its root module (the database knows no feature). */
export type EntityList = NonNullable<DataSourceOptions['entities']>;

export function dataSourceOptions(database: DatabaseConfig, entities: EntityList): DataSourceOptions {
  const common = {
    type: 'postgres' as const,
    entities,
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
      extra: { ...POSTGRES_POOL, max: database.poolSize ?? DEFAULT_POOL_SIZES.main },
      applicationName: 'catalog-api',
      poolErrorHandler: logConnectionError,
    };
  }
  return { ...common, driver: new PGliteDriver(embeddedEngineOptions(database.dataDir)).driver };
}
