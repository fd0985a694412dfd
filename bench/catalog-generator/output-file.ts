/** A line-oriented output file (optionally gzipped) written in ~256 KB chunks that respect backpressure. */
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import type { Writable } from 'node:stream';
import { finished, pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';

const CHUNK_CHARS = 256 * 1024;

export class OutputFile {
  rows = 0;
  private buffer: string[] = [];
  private bufferedChars = 0;
  private readonly sink: Writable;
  private readonly done: Promise<void>;

  constructor(
    readonly path: string,
    gzip: boolean,
  ) {
    const file = createWriteStream(path);
    if (gzip) {
      const gz = createGzip({ level: 6 });
      this.sink = gz;
      this.done = pipeline(gz, file);
    } else {
      this.sink = file;
      this.done = finished(file);
    }
    // Surface errors through `done` / `once(..., 'drain')` instead of as unhandled events.
    this.done.catch(() => undefined);
  }

  /** Buffers one line (the trailing newline is added here); returns true when a flush is due. */
  push(line: string): boolean {
    this.buffer.push(line);
    this.bufferedChars += line.length + 1;
    this.rows++;
    return this.bufferedChars >= CHUNK_CHARS;
  }

  async flush(): Promise<void> {
    if (this.buffer.length === 0) return;
    const chunk = this.buffer.join('\n') + '\n';
    this.buffer = [];
    this.bufferedChars = 0;
    if (!this.sink.write(chunk)) await Promise.race([once(this.sink, 'drain'), this.done]);
  }

  async close(): Promise<void> {
    await this.flush();
    this.sink.end();
    await this.done;
  }
}
