import { type DynamicModule, Global, Module, type OnApplicationShutdown } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Pool as PgPool, type Pool } from 'pg';
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

/** The names of the migrations this process applied at start (empty when the schema was current). */
export const APPLIED_MIGRATIONS = Symbol('APPLIED_MIGRATIONS');

/** The pool of sessions (a catalog load) on DATABASE_DIRECT_URL: one server connection each. */
function sessionPool(url: string): Pool {
  return hardenPool(
    new PgPool({ ...POSTGRES_POOL, max: 2, connectionString: url, application_name: 'catalog-api-session' }),
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
      provide: SearchDatabase,
      inject: [Database, APP_CONFIG],
      useFactory: (db: Database, config: AppConfig): SearchDatabase =>
        config.database.kind === 'postgres'
          ? new PostgresSearchDatabase(config.database.url, config.database.searchPoolSize)
          : new EmbeddedSearchDatabase(db),
    },
  ],
  exports: [Database, SearchDatabase, APPLIED_MIGRATIONS],
})
export class DatabaseModule implements OnApplicationShutdown {
  constructor(private readonly dataSource: DataSource) {}

  /** `entities`: every entity of the application, as its root module lists them (`src/entities.ts`). */
  static forRoot(entities: EntityList): DynamicModule {
    return {
      module: DatabaseModule,
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
