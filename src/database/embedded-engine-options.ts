import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { lockEmbeddedDatabase } from './embedded-lock';

// Kept apart from data-source-options.ts (which loads TypeORM, the entities and the migrations) so
// the server can open the embedded database before it loads those (see startup/embedded-start.ts).

/**
 * PGlite zeroes all shared buffers at start: the default 128 MB cost ~100 ms and ~115 MB resident;
 * 16 MB holds the sample catalog twice over.
 */
export const EMBEDDED_SHARED_BUFFERS = '16MB';

/** PGlite's options for the embedded database in DATA_DIR (also used by `startEmbeddedDatabase`). */
export function embeddedEngineOptions(dataDir: string): { dataDir: string; startParams: string[] } {
  return {
    dataDir: embeddedDataDir(dataDir),
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${EMBEDDED_SHARED_BUFFERS}`],
  };
}

/**
 * `memory://` keeps the embedded database in memory (tests); anything else is a folder, created if
 * needed and locked for this process (idempotent, so the server can claim it before Nest starts).
 */
export function embeddedDataDir(dataDir: string): string {
  if (dataDir.startsWith('memory://')) return dataDir;
  const absolute = resolve(dataDir, 'pglite');
  mkdirSync(absolute, { recursive: true });
  lockEmbeddedDatabase(resolve(dataDir));
  return absolute;
}
