import type { DataSourceOptions } from 'typeorm';
import { PGliteDriver } from 'typeorm-pglite';
import { MIGRATIONS } from '../../migrations';
import type { DatabaseConfig } from '../config/app-config';
import { embeddedEngineOptions } from './embedded-engine-options';
import { logConnectionError, ResilientClient } from './resilient-client';

/**
 * No start-up parameters: transaction poolers refuse them (deadlines go per statement). Idle
 * connections live a minute so bursty traffic does not pay a backend start after every pause.
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
 * Connections one replica holds at most: both pools plus the change feed's session. Keep
 * docs/scaling.md, Connection budget, and the manifests' comments in step.
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
