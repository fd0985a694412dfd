import { IngestInputError } from './ingest-errors';
import { type ReadPosition, readLineBatches, readLines } from './line-reader';

export interface TsvRow {
  line: number;
  fields: string[];
}

/**
 * Rows of an IMDb dataset file: a header line that must name exactly `columns`, then tab-separated
 * rows with exactly that many fields. IMDb's TSV has no quoting: a `"` is an ordinary character.
 */
export async function* readTsv(
  path: string,
  columns: readonly string[],
  position?: ReadPosition,
): AsyncGenerator<TsvRow> {
  let header = true;
  for await (const batch of readLineBatches(path, position)) {
    for (const { number, text } of batch) {
      if (header) {
        header = false;
        if (text !== columns.join('\t')) {
          throw new IngestInputError(path, `expected the header "${columns.join('\\t')}"`, number);
        }
        continue;
      }
      if (text === '') continue;
      const fields = text.split('\t');
      if (fields.length !== columns.length) {
        throw new IngestInputError(
          path,
          `expected ${columns.length} tab-separated fields, found ${fields.length}`,
          number,
        );
      }
      yield { line: number, fields };
    }
  }
  if (header) throw new IngestInputError(path, 'is empty (no header line)');
}

/** Reads only the header line, so a wrong file is refused before anything is staged. */
export async function checkTsvHeader(path: string, columns: readonly string[]): Promise<void> {
  const lines = readLines(path);
  try {
    const first = await lines.next();
    if (first.done) throw new IngestInputError(path, 'is empty (no header line)');
    if (first.value.text !== columns.join('\t')) {
      throw new IngestInputError(path, `expected the header "${columns.join('\\t')}"`, 1);
    }
  } finally {
    await lines.return(undefined);
  }
}
