import { Readable } from 'node:stream';
import type { SqlSession } from '../../database/database';

/** A value as staged: lists are already joined into one text value. */
export type StagingValue = string | number | boolean | null;

/** Rows per multi-row INSERT are bounded by the protocol's bind parameters (65,535). */
const MAX_BIND_PARAMETERS = 10_000;
/** COPY text is sent in chunks of about this many characters. */
const COPY_CHUNK_CHARS = 64 * 1024;

/** Bulk-loads rows into a table: COPY where the engine has it, else multi-row INSERTs. */
export async function bulkLoad(
  session: SqlSession,
  table: string,
  columns: readonly string[],
  rows: AsyncIterable<StagingValue[]>,
): Promise<void> {
  if (session.copyFrom) {
    // One chunk read ahead, not Readable's default 16: queued chunks can outlive the young
    // generation and be promoted, growing the heap (an ingest sends ~1 GB of COPY text).
    const source = Readable.from(copyText(rows), { highWaterMark: 1 });
    await session.copyFrom(`COPY ${table} (${columns.join(', ')}) FROM STDIN`, source);
    return;
  }
  const rowsPerInsert = Math.floor(MAX_BIND_PARAMETERS / columns.length);
  let batch: StagingValue[][] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    const tuples = batch.map(
      (_, row) => `(${columns.map((_c, col) => `$${row * columns.length + col + 1}`).join(', ')})`,
    );
    await session.query(
      `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${tuples.join(', ')}`,
      batch.flat(),
    );
    batch = [];
  };
  for await (const row of rows) {
    batch.push(row);
    if (batch.length >= rowsPerInsert) await flush();
  }
  await flush();
}

/** COPY text format: tab-separated, `\N` for null, backslash escapes for \ tab newline CR. */
export async function* copyText(rows: AsyncIterable<StagingValue[]>): AsyncGenerator<string> {
  let chunk = '';
  for await (const row of rows) {
    let line = copyField(row[0]);
    for (let column = 1; column < row.length; column++) line += '\t' + copyField(row[column]);
    chunk += line + '\n';
    if (chunk.length >= COPY_CHUNK_CHARS) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk) yield chunk;
}

const COPY_SPECIAL = /[\\\t\n\r]/;
const COPY_SPECIALS = /[\\\t\n\r]/g;

function copyField(value: StagingValue): string {
  if (value === null) return '\\N';
  if (typeof value !== 'string') return String(value);
  if (!COPY_SPECIAL.test(value)) return value;
  return value.replace(COPY_SPECIALS, (c) =>
    c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r',
  );
}
