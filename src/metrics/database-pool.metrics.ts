import { Inject, Injectable } from '@nestjs/common';
import type { Pool } from 'pg';
import { Gauge, Registry } from 'prom-client';
import { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { RoutedSearchDatabase } from '../database/catalog-read-database';
import { PostgresSearchDatabase, SearchDatabase } from '../database/search-database';

type SearchPoolCounts = ReturnType<PostgresSearchDatabase['poolCounts']>;

/**
 * The PostgreSQL connection pool (the one TypeORM and the `Database` gateway share), read at scrape
 * time; the search pool's are `SearchPoolMetrics`. The embedded database has no pool: nothing is reported for it.
 */
@Injectable()
export class DatabasePoolMetrics {
  constructor(registry: Registry, dataSource: DataSource, @Inject(APP_CONFIG) config: AppConfig) {
    if (config.database.kind !== 'postgres') return;
    const pool = () => (dataSource.driver as PostgresDriver).master as Pool | undefined;
    const gauge = (name: string, help: string, read: (pool: Pool) => number) =>
      new Gauge({
        name,
        help,
        registers: [registry],
        collect() {
          const current = pool();
          this.set(current ? read(current) : 0);
        },
      });
    gauge('db_pool_connections', 'Open connections in the PostgreSQL pool', (p) => p.totalCount);
    gauge('db_pool_idle_connections', 'Open connections not checked out', (p) => p.idleCount);
    gauge('db_pool_waiting_requests', 'Queries waiting for a connection', (p) => p.waitingCount);
  }
}

/**
 * The search pool (`DATABASE_SEARCH_POOL_SIZE`), read at scrape time; PostgreSQL only. With read
 * replicas, every server's search pool of this process, summed.
 */
@Injectable()
export class SearchPoolMetrics {
  constructor(registry: Registry, searchDatabase: SearchDatabase) {
    if (!(
      searchDatabase instanceof PostgresSearchDatabase || searchDatabase instanceof RoutedSearchDatabase
    )) {
      return;
    }
    const gauge = (name: string, help: string, read: (counts: SearchPoolCounts) => number) =>
      new Gauge({
        name,
        help,
        registers: [registry],
        collect() {
          this.set(read(searchDatabase.poolCounts()));
        },
      });
    gauge('db_search_pool_connections', 'Open connections in the search pool', (c) => c.total);
    gauge('db_search_pool_waiting_requests', 'Searches waiting for a connection', (c) => c.waiting);
  }
}
