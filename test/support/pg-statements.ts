/**
 * Counts the SQL statements a PostgreSQL client sends, read from its side of the wire protocol
 * (https://www.postgresql.org/docs/current/protocol-message-formats.html): one per simple `Query`
 * and one per extended-protocol `Execute`. Give `tap` to a `TcpProxy` in front of the database.
 */
export class PgStatementCounter {
  /** Every statement sent so far, by its SQL text (`Execute` takes the text of its `Parse`). */
  readonly statements: string[] = [];

  readonly tap = (): ((chunk: Buffer) => void) => {
    let pending = Buffer.alloc(0);
    let started = false;
    let parsed = '';
    return (chunk) => {
      pending = Buffer.concat([pending, chunk]);
      for (;;) {
        if (!started) {
          // Untyped: SSLRequest / GSSENCRequest (answered, then the startup follows) or the startup.
          if (pending.length < 8) return;
          const length = pending.readInt32BE(0);
          if (pending.length < length) return;
          const code = pending.readInt32BE(4);
          started = code !== 80877103 && code !== 80877104;
          pending = pending.subarray(length);
          continue;
        }
        if (pending.length < 5) return;
        const length = pending.readInt32BE(1) + 1;
        if (pending.length < length) return;
        const type = String.fromCharCode(pending[0]);
        const body = pending.subarray(5, length);
        if (type === 'Q') this.statements.push(cString(body, 0));
        // Parse: statement name, then the query text.
        if (type === 'P') parsed = cString(body, body.indexOf(0) + 1);
        if (type === 'E') this.statements.push(parsed);
        pending = pending.subarray(length);
      }
    };
  };
}

function cString(buffer: Buffer, from: number): string {
  const end = buffer.indexOf(0, from);
  return buffer.subarray(from, end < 0 ? buffer.length : end).toString('utf8');
}
