import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { DataSourceOptions } from 'typeorm';
import { PGliteDriver } from 'typeorm-pglite';
import { MIGRATIONS } from '../../migrations';
import type { DatabaseConfig } from '../config/app-config';
import { lockEmbeddedDatabase } from './embedded-lock';
import { ENTITIES } from './entities';

/** Bounds that keep a sick database from hanging requests or probes forever. */
export const POSTGRES_POOL = {
  max: 10,
  connectionTimeoutMillis: 5_000,
  statement_timeout: 30_000,
  idle_in_transaction_session_timeout: 60_000,
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
    return { ...common, url: database.url, extra: POSTGRES_POOL, applicationName: 'catalog-api' };
  }
  return { ...common, driver: new PGliteDriver({ dataDir: embeddedDataDir(database.dataDir) }).driver };
}

/**
 * `memory://` keeps the embedded database in memory (tests); anything else is a folder, created if
 * needed and locked for this process (idempotent, so the server can claim it before Nest starts).
 */
export function embeddedDataDir(dataDir: string): string {
  if (dataDir.startsWith('memory://')) return dataDir;
  const absolute = resolve(dataDir, 'pglite');
  mkdirSync(absolute, { recursive: true });
  lockEmbeddedDatabase(resolve(dataDir));
  return absolute;
}
