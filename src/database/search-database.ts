import type { OnApplicationShutdown } from '@nestjs/common';
import { Pool } from 'pg';
import { REQUEST_DEADLINE, type RequestDeadline, queryWithDeadline } from './deadline-query';
import { hardenPool } from './resilient-client';
import { DEFAULT_POOL_SIZES, POSTGRES_POOL } from './data-source-options';
import type { Database, SqlExecutor } from './database';

/**
 * Searches get their own bounded share of the database (a pool on PostgreSQL, a queue limit on the
 * embedded one), so they never make lookups, /health or limit checks wait.
 */
export abstract class SearchDatabase implements SqlExecutor {
  /** Statements it runs at once; `SearchAdmission` lets at most this many searches run. */
  abstract readonly concurrency: number;
  abstract query<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<Row[]>;
}

/** Searches waiting or running at once on the embedded database; more wait their turn. */
export const EMBEDDED_SEARCH_CONCURRENCY = 2;

export class PostgresSearchDatabase extends SearchDatabase implements OnApplicationShutdown {
  private readonly pool: Pool;
  readonly concurrency: number;

  constructor(
    url: string,
    size = DEFAULT_POOL_SIZES.search,
    applicationName = 'catalog-api-search',
    private readonly deadline: RequestDeadline = REQUEST_DEADLINE,
  ) {
    super();
    this.concurrency = size;
    // Built from the shared options (resilient clients, deadlines, keep-alive) and hardened like
    // every pool: a connection that dies never ends the process; the next search opens a new one.
    this.pool = hardenPool(
      new Pool({
        ...POSTGRES_POOL,
        max: size,
        connectionString: url,
        application_name: applicationName,
      }),
    );
  }

  async query<Row>(sql: string, params: readonly unknown[] = []): Promise<Row[]> {
    return queryWithDeadline<Row>(this.pool, sql, params, this.deadline);
  }

  /** The pool's counts, for /metrics: open, idle, and searches waiting for a connection. */
  poolCounts(): { total: number; idle: number; waiting: number } {
    return { total: this.pool.totalCount, idle: this.pool.idleCount, waiting: this.pool.waitingCount };
  }

  async onApplicationShutdown(): Promise<void> {
    if (!this.pool.ended) await this.pool.end();
  }
}

export class EmbeddedSearchDatabase extends SearchDatabase {
  readonly concurrency = EMBEDDED_SEARCH_CONCURRENCY;
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly db: Database) {
    super();
  }

  async query<Row>(sql: string, params: readonly unknown[] = []): Promise<Row[]> {
    if (this.running >= EMBEDDED_SEARCH_CONCURRENCY) {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running += 1;
    }
    try {
      return await this.db.query<Row>(sql, params);
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    }
  }
}
