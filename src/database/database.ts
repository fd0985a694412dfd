import type { PGlite, Transaction } from '@electric-sql/pglite';
import type { OnApplicationShutdown } from '@nestjs/common';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Pool, PoolClient, QueryConfig } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { queryWithDeadline } from './deadline-query';

/**
 * Sessions run maintenance work (a catalog load lifts its statement timeout; one merge may take
 * minutes), so their queries replace the pool's client-side deadline with this longer one.
 */
export const SESSION_QUERY_TIMEOUT_MS = 60 * 60_000;

/** Runs parameterized SQL and returns the rows. */
export interface SqlExecutor {
  query<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<Row[]>;
}

/** One database session: its temporary tables and settings last until `session()` returns. */
export interface SqlSession extends SqlExecutor {
  transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  /** `COPY … FROM STDIN` from a stream of COPY text; null where the engine has no COPY protocol. */
  readonly copyFrom: ((copySql: string, source: Readable) => Promise<void>) | null;
}

/**
 * Raw SQL over a pg pool or PGlite. PGlite has one session: transactions must use its exclusive
 * `transaction()`, as a BEGIN would pull concurrent requests into it.
 */
export abstract class Database implements SqlExecutor {
  abstract readonly engine: 'postgres' | 'embedded';
  /**
   * One request-path statement. On PostgreSQL it is unnamed and carries its own deadline (see
   * `DeadlineQuery`), so it is valid on whichever server connection a transaction pooler hands out.
   */
  abstract query<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<Row[]>;
  abstract session<T>(work: (session: SqlSession) => Promise<T>): Promise<T>;
}

export class PostgresDatabase extends Database implements OnApplicationShutdown {
  readonly engine = 'postgres' as const;

  /**
   * `pool` serves requests (possibly through a transaction pooler); `sessionPool` serves sessions,
   * which need one server connection throughout: DATABASE_DIRECT_URL's pool when it is set.
   */
  constructor(
    private readonly pool: Pool,
    private readonly sessionPool: Pool = pool,
  ) {
    super();
  }

  query<Row>(sql: string, params: readonly unknown[] = []): Promise<Row[]> {
    return queryWithDeadline<Row>(this.pool, sql, params);
  }

  /** The request pool is TypeORM's (closed with its DataSource); a session pool of its own is ours. */
  async onApplicationShutdown(): Promise<void> {
    if (this.sessionPool !== this.pool) await this.sessionPool.end();
  }

  async session<T>(work: (session: SqlSession) => Promise<T>): Promise<T> {
    const client = await this.sessionPool.connect();
    let failure: Error | undefined;
    try {
      // Behind a transaction pooler consecutive statements may land on different server
      // connections: temporary tables, settings and locks vanish midway. Say so, in one line.
      const backend = await backendPid(client);
      const whole = async () => (await backendPid(client).catch(() => backend)) === backend;
      let result: T;
      try {
        result = await work(postgresSession(client));
      } catch (error) {
        throw (await whole()) ? error : new SessionSplitError();
      }
      if (!(await whole())) throw new SessionSplitError();
      return result;
    } catch (error) {
      failure = error instanceof Error ? error : new Error(String(error));
      throw error;
    } finally {
      // A connection whose work failed midway (an interrupted COPY, a lost lock) is not reused.
      client.release(failure);
    }
  }
}

/** A session's statements ran on more than one server connection. */
export class SessionSplitError extends Error {
  constructor() {
    super(
      'The database session was split across server connections (DATABASE_URL goes through a transaction pooler?): set DATABASE_DIRECT_URL to a direct PostgreSQL URL for the catalog load',
    );
  }
}

async function backendPid(client: PoolClient): Promise<number> {
  return (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid;
}

/** pg reads `query_timeout` from a query's own config before the client's (per-query deadline). */
type DeadlineQuery = QueryConfig & { query_timeout: number };

function postgresSession(client: PoolClient): SqlSession {
  const query = async <Row>(sql: string, params: readonly unknown[] = []) => {
    const config: DeadlineQuery = {
      text: sql,
      values: params as unknown[],
      query_timeout: SESSION_QUERY_TIMEOUT_MS,
    };
    return (await client.query(config)).rows as Row[];
  };
  return {
    query,
    async transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
      await client.query('BEGIN');
      try {
        const result = await work({ query });
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      }
    },
    copyFrom: (copySql, source) =>
      pipeline(
        source,
        client.query(Object.assign(copyFrom(copySql), { query_timeout: SESSION_QUERY_TIMEOUT_MS })),
      ),
  };
}

export class EmbeddedDatabase extends Database {
  readonly engine = 'embedded' as const;

  constructor(private readonly pglite: PGlite) {
    super();
  }

  async query<Row>(sql: string, params: readonly unknown[] = []): Promise<Row[]> {
    return (await this.pglite.query<Row>(sql, params as unknown[])).rows;
  }

  session<T>(work: (session: SqlSession) => Promise<T>): Promise<T> {
    return work({
      query: (sql, params) => this.query(sql, params),
      transaction: (txWork) =>
        this.pglite.transaction((tx: Transaction) =>
          txWork({
            query: async <Row>(sql: string, params: readonly unknown[] = []) =>
              (await tx.query<Row>(sql, params as unknown[])).rows,
          }),
        ),
      copyFrom: null,
    });
  }
}
