import type { PGlite, Transaction } from '@electric-sql/pglite';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Pool, PoolClient, QueryConfig } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

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
 * The raw-SQL gateway for hot paths and the catalog loader, over a PostgreSQL pool or the embedded
 * PGlite instance. PGlite has a single session, so its transactions go through PGlite's exclusive
 * `transaction()`: a BEGIN on the shared session would pull concurrent requests into it.
 */
export abstract class Database implements SqlExecutor {
  abstract readonly engine: 'postgres' | 'embedded';
  abstract query<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<Row[]>;
  /**
   * The same for a hot statement, under a name unique to its SQL: PostgreSQL parses and plans it
   * once per connection and then only binds and runs it. (PGlite runs it as `query` does.)
   */
  abstract prepared<Row = Record<string, unknown>>(
    name: string,
    sql: string,
    params?: readonly unknown[],
  ): Promise<Row[]>;
  abstract session<T>(work: (session: SqlSession) => Promise<T>): Promise<T>;
}

export class PostgresDatabase extends Database {
  readonly engine = 'postgres' as const;

  constructor(private readonly pool: Pool) {
    super();
  }

  async query<Row>(sql: string, params: readonly unknown[] = []): Promise<Row[]> {
    return (await this.pool.query(sql, params as unknown[])).rows as Row[];
  }

  async prepared<Row>(name: string, sql: string, params: readonly unknown[] = []): Promise<Row[]> {
    return (await this.pool.query({ name, text: sql, values: params as unknown[] })).rows as Row[];
  }

  async session<T>(work: (session: SqlSession) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    let failure: Error | undefined;
    try {
      return await work(postgresSession(client));
    } catch (error) {
      failure = error instanceof Error ? error : new Error(String(error));
      throw error;
    } finally {
      // A connection whose work failed midway (an interrupted COPY, a lost lock) is not reused.
      client.release(failure);
    }
  }
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

  prepared<Row>(_name: string, sql: string, params: readonly unknown[] = []): Promise<Row[]> {
    return this.query<Row>(sql, params);
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
