import { type Pool, Query, type QueryResult } from 'pg';

/** The server cancels a request-path statement after this long (every answer within 5 s). */
export const REQUEST_STATEMENT_TIMEOUT_MS = 2_000;
/** The client gives up on it after this long: answers even when the server cannot, in a partition. */
export const REQUEST_QUERY_TIMEOUT_MS = 2_500;

/** pg's connection as a Query drives it (the extended-protocol messages it sends). */
interface ProtocolConnection {
  parse(message: { text: string; name?: string; types?: unknown[] }): void;
  bind(message: { portal?: string; statement?: string; values?: unknown[] }): void;
  execute(message: { portal?: string; rows?: number }): void;
}

/**
 * One statement with its own server deadline, safe behind a transaction pooler: a local
 * `set_config` goes before the statement in the same Sync, so it ends with it (one round trip).
 */
export class DeadlineQuery extends Query {
  readonly query_timeout: number;
  private preambleDone = false;
  private readonly preamble: string;

  constructor(text: string, values: readonly unknown[], deadline: RequestDeadline) {
    // queryMode 'extended' makes pg prepare (Parse/Bind/Execute) even a statement without values.
    // No callback: pool.query and client.query attach theirs (the pool releases its client in it).
    super({ text, values: values as unknown[], queryMode: 'extended' } as never);
    this.preamble = `SELECT FROM set_config('statement_timeout', '${deadline.statementTimeoutMs}', true)`;
    if (deadline.lockTimeoutMs !== undefined) {
      this.preamble += ` statement, set_config('lock_timeout', '${deadline.lockTimeoutMs}', true) lock`;
    }
    this.query_timeout = deadline.queryTimeoutMs;
  }

  prepare(connection: ProtocolConnection): void {
    connection.parse({ text: this.preamble });
    connection.bind({});
    connection.execute({});
    (Query.prototype as unknown as { prepare(c: ProtocolConnection): void }).prepare.call(this, connection);
  }

  handleDataRow(message: unknown): void {
    if (this.preambleDone) (Query.prototype as unknown as Handlers).handleDataRow.call(this, message);
  }

  handleCommandComplete(message: unknown, connection: unknown): void {
    if (!this.preambleDone) {
      this.preambleDone = true;
      return;
    }
    (Query.prototype as unknown as Handlers).handleCommandComplete.call(this, message, connection);
  }
}

interface Handlers {
  handleDataRow(message: unknown): void;
  handleCommandComplete(message: unknown, connection: unknown): void;
}

/** A statement's two bounds: on the server (cancels it) and on the client (gives up waiting). */
export interface RequestDeadline {
  statementTimeoutMs: number;
  queryTimeoutMs: number;
  /** How long the statement may wait for a lock before the server cancels it (SQLSTATE 55P03). */
  lockTimeoutMs?: number;
}

export const REQUEST_DEADLINE: RequestDeadline = {
  statementTimeoutMs: REQUEST_STATEMENT_TIMEOUT_MS,
  queryTimeoutMs: REQUEST_QUERY_TIMEOUT_MS,
};

/** Runs `sql` on a pool under a deadline (the request path's by default) and returns its rows. */
export async function queryWithDeadline<Row>(
  pool: Pool,
  sql: string,
  params: readonly unknown[],
  deadline: RequestDeadline = REQUEST_DEADLINE,
): Promise<Row[]> {
  // pg-pool answers a Submittable with a promise of its result (@types/pg types it as the query).
  const result = (await (pool.query(new DeadlineQuery(sql, params, deadline)) as unknown)) as QueryResult;
  return result.rows as Row[];
}
