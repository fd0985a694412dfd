import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { lockEmbeddedDatabase } from './embedded-lock';

// Kept apart from data-source-options.ts (which loads TypeORM, the entities and the migrations) so
// the server can open the embedded database before it loads those (see startup/embedded-start.ts).

/**
 * PostgreSQL's default of 128 MB of shared buffers is zeroed page by page when PGlite starts:
 * ~100 ms of the start and ~115 MB of resident memory for the process's life, for a sample catalog
 * of a few MB. 16 MB holds it twice over; pages beyond it come from the files (the OS's cache).
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
