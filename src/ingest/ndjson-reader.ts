import { IngestInputError } from './ingest-errors';
import { type ReadPosition, readLineBatches } from './line-reader';

export interface JsonLine {
  line: number;
  value: Record<string, unknown>;
}

/** One JSON object per line; blank lines are allowed, anything else that is not an object is refused. */
export async function* readNdjson(path: string, position?: ReadPosition): AsyncGenerator<JsonLine> {
  for await (const batch of readLineBatches(path, position)) {
    for (const { number, text } of batch) {
      if (text.trim() === '') continue;
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (error) {
        throw new IngestInputError(path, `malformed JSON (${(error as Error).message})`, number);
      }
      if (value === null || typeof value !== 'object' || Array.isArray(value)) {
        throw new IngestInputError(path, 'expected a JSON object', number);
      }
      yield { line: number, value: value as Record<string, unknown> };
    }
  }
}

/** Reads only the first line, so a wrong file is refused before anything is staged. */
export async function checkNdjson(path: string): Promise<void> {
  const lines = readNdjson(path);
  try {
    await lines.next();
  } finally {
    await lines.return(undefined);
  }
}
