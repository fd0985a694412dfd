import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  renameSync,
  rmSync,
  rmdirSync,
  statSync,
} from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The migrated, sample-loaded embedded database built by `npm run build`. Copying it avoids initdb
 * and an ingest in the server, which would keep several hundred MB more for the process's life.
 */
export function embeddedSeedDir(): string {
  let dir = __dirname;
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return join(dir, 'dist', 'embedded-seed', 'pglite');
}

/** Fills an empty PGlite folder from the seed; true when it did. Never touches a non-empty folder. */
export function seedEmbeddedDatabase(pgliteDir: string, seedDir = embeddedSeedDir()): boolean {
  if (!needsSeed(pgliteDir, seedDir)) return false;
  // Copied beside it, then renamed: an interrupted copy never looks like a database.
  const staging = `${pgliteDir}.seeding`;
  rmSync(staging, { recursive: true, force: true });
  copyTree(seedDir, staging);
  rmdirSync(pgliteDir);
  renameSync(staging, pgliteDir);
  return true;
}

/** True when the PGlite folder is empty and a seed exists: what `seedEmbeddedDatabase` would copy. */
export function needsSeed(pgliteDir: string, seedDir = embeddedSeedDir()): boolean {
  return readdirSync(pgliteDir).length === 0 && existsSync(join(seedDir, 'PG_VERSION'));
}

/** A plain walk: the seed holds only folders and files, and `cpSync` took several times longer. */
function copyTree(from: string, to: string): void {
  mkdirSync(to, { mode: statSync(from).mode & 0o777 });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = join(from, entry.name);
    const target = join(to, entry.name);
    if (entry.isDirectory()) copyTree(source, target);
    else copyFileSync(source, target);
  }
}
