import { Pool } from 'pg';
import { DEFAULT_POOL_SIZES, POSTGRES_POOL } from './data-source-options';
import type { SqlExecutor } from './database';
import { REQUEST_DEADLINE, type RequestDeadline, queryWithDeadline } from './deadline-query';
import { REPLICA_CHECK_TIMEOUT_MS, type ReadRouter, type ReadServer } from './read-router';
import { hardenPool } from './resilient-client';
import { PostgresSearchDatabase, SearchDatabase } from './search-database';

/**
 * Where the catalog's reads go (titles, lists, the catalog state): the primary, or the read replica
 * `ReadRouter` chose. Keys, limits, quota and the catalog load use `Database`, always the primary.
 */
export abstract class CatalogReadDatabase implements SqlExecutor {
  /** True when every read goes to the primary (no read replicas): it may also read what only the primary holds fresh. */
  abstract readonly primaryOnly: boolean;
  abstract query<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<Row[]>;
}

export class RoutedCatalogReads extends CatalogReadDatabase {
  constructor(private readonly router: ReadRouter) {
    super();
  }

  get primaryOnly(): boolean {
    return this.router.replicas.length === 0;
  }

  query<Row>(sql: string, params?: readonly unknown[]): Promise<Row[]> {
    return this.router.query<Row>('catalog', sql, params);
  }
}

/** Searches on the server `ReadRouter` chose, each replica with a search pool of the same size. */
export class RoutedSearchDatabase extends SearchDatabase {
  readonly concurrency: number;

  constructor(
    private readonly router: ReadRouter,
    primary: SearchDatabase,
  ) {
    super();
    this.concurrency = primary.concurrency;
  }

  query<Row>(sql: string, params?: readonly unknown[]): Promise<Row[]> {
    return this.router.query<Row>('search', sql, params);
  }

  /** The search pools' counts summed over the primary and every replica, for /metrics. */
  poolCounts(): { total: number; idle: number; waiting: number } {
    const sum = { total: 0, idle: 0, waiting: 0 };
    for (const server of [this.router.primary, ...this.router.replicas]) {
      if (!(server.search instanceof PostgresSearchDatabase)) continue;
      const counts = server.search.poolCounts();
      sum.total += counts.total;
      sum.idle += counts.idle;
      sum.waiting += counts.waiting;
    }
    return sum;
  }
}

/**
 * A standby replaying a load's table swap holds its lock until the commit replays: a read waiting
 * longer is cancelled (55P03) and sent to the primary.
 */
export const REPLICA_LOCK_TIMEOUT_MS = 100;

const REPLICA_DEADLINE: RequestDeadline = { ...REQUEST_DEADLINE, lockTimeoutMs: REPLICA_LOCK_TIMEOUT_MS };

/**
 * A replica's pools, sized like the primary's, plus one lazy connection for the checks; statements
 * as on the primary (unnamed, with deadline), so a pooler may front the replica too.
 */
export function replicaServer(
  url: string,
  sizes: { poolSize?: number; searchPoolSize?: number },
): ReadServer {
  const pool = hardenPool(
    new Pool({
      ...POSTGRES_POOL,
      max: sizes.poolSize ?? DEFAULT_POOL_SIZES.main,
      connectionString: url,
      application_name: 'catalog-api-read',
    }),
  );
  // One connection of its own for the router's checks, never queued behind the requests' reads.
  const checks = hardenPool(
    new Pool({
      ...POSTGRES_POOL,
      max: 1,
      connectionTimeoutMillis: REPLICA_CHECK_TIMEOUT_MS,
      connectionString: url,
      application_name: 'catalog-api-read-check',
    }),
  );
  const search = new PostgresSearchDatabase(
    url,
    sizes.searchPoolSize,
    'catalog-api-read-search',
    REPLICA_DEADLINE,
  );
  return {
    name: serverName(url),
    catalog: { query: (sql, params = []) => queryWithDeadline(pool, sql, params, REPLICA_DEADLINE) },
    search,
    checks: {
      query: (sql, params = []) =>
        queryWithDeadline(checks, sql, params, {
          statementTimeoutMs: REPLICA_CHECK_TIMEOUT_MS,
          queryTimeoutMs: REPLICA_CHECK_TIMEOUT_MS,
        }),
    },
    close: async () => {
      await Promise.all([pool.end(), checks.end(), search.onApplicationShutdown()]);
    },
    poolCounts: () => ({ total: pool.totalCount, waiting: pool.waitingCount }),
  };
}

/** host:port of a URL (never its credentials), for logs and metrics. */
export function serverName(url: string): string {
  const parsed = new URL(url);
  return `${parsed.hostname}:${parsed.port || '5432'}`;
}
