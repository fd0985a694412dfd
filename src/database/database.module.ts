import { type DynamicModule, Global, Module, type OnApplicationShutdown } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Client as PgClient, Pool as PgPool, type Pool } from 'pg';
import { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { getPGliteInstance } from 'typeorm-pglite';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { type EntityList, POSTGRES_POOL, dataSourceOptions } from './data-source-options';
import { hardenPool } from './resilient-client';
import { Database, EmbeddedDatabase, PostgresDatabase } from './database';
import { releaseEmbeddedDatabaseLocks } from './embedded-lock';
import { EmbeddedSearchDatabase, PostgresSearchDatabase, SearchDatabase } from './search-database';
import { runPendingMigrations } from './migration-runner';
import {
  CatalogReadDatabase,
  RoutedCatalogReads,
  RoutedSearchDatabase,
  replicaServer,
  serverName,
} from './catalog-read-database';
import { ReadRouter } from './read-router';
import { ChangeFeed, NoChangeFeed, PostgresChangeFeed } from './change-feed';

/** The names of the migrations this process applied at start (empty when the schema was current). */
export const APPLIED_MIGRATIONS = Symbol('APPLIED_MIGRATIONS');

/** The primary's search database; `SearchDatabase` is it, or the router's when there are replicas. */
const PRIMARY_SEARCH_DATABASE = Symbol('PRIMARY_SEARCH_DATABASE');

/** Whether this process listens for change notices (the server does; the CLI only sends them). */
const LISTENS = Symbol('LISTENS');

/** The pool of sessions (a catalog load) on DATABASE_DIRECT_URL: one server connection each. */
function sessionPool(url: string): Pool {
  return hardenPool(
    new PgPool({ ...POSTGRES_POOL, max: 2, connectionString: url, application_name: 'catalog-api-session' }),
  );
}

/**
 * The feed's session: DATABASE_DIRECT_URL when set (a LISTEN needs its own server connection). None
 * with read replicas: the primary's notice would precede the replica's replay.
 */
function changeFeed(config: AppConfig, db: Database, router: ReadRouter): ChangeFeed {
  const { database } = config;
  if (database.kind !== 'postgres' || router.replicas.length > 0) return new NoChangeFeed();
  const url = database.directUrl ?? database.url;
  const { connectionTimeoutMillis, keepAlive, keepAliveInitialDelayMillis } = POSTGRES_POOL;
  return new PostgresChangeFeed(
    () =>
      new PgClient({
        connectionString: url,
        application_name: 'catalog-api-feed',
        connectionTimeoutMillis,
        keepAlive,
        keepAliveInitialDelayMillis,
      }),
    db,
    serverName(url),
  );
}

/**
 * TypeORM for entities and migrations, plus the raw-SQL `Database` gateway. Pending migrations are
 * applied before `Database` exists, so nothing that depends on it can touch an old schema.
 */
@Global()
@Module({
  providers: [
    {
      provide: APPLIED_MIGRATIONS,
      inject: [DataSource],
      useFactory: async (dataSource: DataSource): Promise<string[]> =>
        (await runPendingMigrations(dataSource)).map((migration) => migration.name),
    },
    {
      provide: Database,
      // Depending on APPLIED_MIGRATIONS makes the schema current before any query can run.
      inject: [DataSource, APP_CONFIG, APPLIED_MIGRATIONS],
      useFactory: async (dataSource: DataSource, config: AppConfig): Promise<Database> => {
        if (config.database.kind === 'embedded') return new EmbeddedDatabase(await getPGliteInstance());
        const pool = (dataSource.driver as PostgresDriver).master as Pool;
        const { directUrl } = config.database;
        return new PostgresDatabase(pool, directUrl ? sessionPool(directUrl) : pool);
      },
    },
    {
      provide: PRIMARY_SEARCH_DATABASE,
      inject: [Database, APP_CONFIG],
      useFactory: (db: Database, config: AppConfig): SearchDatabase =>
        config.database.kind === 'postgres'
          ? new PostgresSearchDatabase(config.database.url, config.database.searchPoolSize)
          : new EmbeddedSearchDatabase(db),
    },
    {
      // Read replicas (DATABASE_READ_URL) are checked once before the first request.
      provide: ReadRouter,
      inject: [Database, PRIMARY_SEARCH_DATABASE, APP_CONFIG],
      useFactory: async (db: Database, search: SearchDatabase, config: AppConfig): Promise<ReadRouter> => {
        const { database } = config;
        const urls = database.kind === 'postgres' ? (database.readUrls ?? []) : [];
        const replicas = urls.map((url) => replicaServer(url, database.kind === 'postgres' ? database : {}));
        const primary = { name: 'primary', catalog: db, search, close: async () => undefined };
        const router = new ReadRouter(primary, replicas);
        await router.check();
        return router;
      },
    },
    {
      provide: CatalogReadDatabase,
      inject: [ReadRouter],
      useFactory: (router: ReadRouter): CatalogReadDatabase => new RoutedCatalogReads(router),
    },
    {
      provide: ChangeFeed,
      inject: [LISTENS, APP_CONFIG, Database, ReadRouter],
      useFactory: (listens: boolean, config: AppConfig, db: Database, router: ReadRouter): ChangeFeed =>
        listens ? changeFeed(config, db, router) : new NoChangeFeed(),
    },
    {
      // Without replicas, exactly the primary's (its pool counts on /metrics as before).
      provide: SearchDatabase,
      inject: [ReadRouter, PRIMARY_SEARCH_DATABASE],
      useFactory: (router: ReadRouter, primary: SearchDatabase): SearchDatabase =>
        router.replicas.length === 0 ? primary : new RoutedSearchDatabase(router, primary),
    },
  ],
  exports: [Database, SearchDatabase, CatalogReadDatabase, ReadRouter, ChangeFeed, APPLIED_MIGRATIONS],
})
export class DatabaseModule implements OnApplicationShutdown {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * `entities`: every entity of the application, as its root module lists them (`src/entities.ts`).
   * `listen`: hold a change feed (`ChangeFeed`) where it can work; the server does, the CLI does not.
   */
  static forRoot(entities: EntityList, { listen = false } = {}): DynamicModule {
    return {
      module: DatabaseModule,
      providers: [{ provide: LISTENS, useValue: listen }],
      imports: [
        TypeOrmModule.forRootAsync({
          inject: [APP_CONFIG],
          useFactory: (config: AppConfig) => ({
            ...dataSourceOptions(config.database, entities),
            // Fail fast at start: an orchestrator restarts the process, and errors stay visible.
            retryAttempts: config.database.kind === 'postgres' ? 2 : 0,
            retryDelay: 1_000,
          }),
        }),
      ],
    };
  }

  /** Close the database first, then let another process open the embedded one. */
  async onApplicationShutdown(): Promise<void> {
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
    releaseEmbeddedDatabaseLocks();
  }
}
