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
 * The embedded database with every migration applied and the sample catalog loaded (no API keys),
 * built by `npm run build` (`scripts/build-embedded-seed.js`) with the PGlite version installed.
 * Copying it is much cheaper than initdb, migrations and an ingest in the server's own process,
 * which would keep that process at several hundred MB more for its whole life.
 */
export function embeddedSeedDir(): string {
  let dir = __dirname;
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return join(dir, 'dist', 'embedded-seed', 'pglite');
}

/**
 * Fills an empty PGlite folder from the seed; true when it did. A folder that already holds
 * anything is left to PGlite, and without a seed (a build that skipped it, tests) the server
 * builds the database itself as before.
 */
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

/**
 * The seed holds only folders and regular files (about a thousand), so a plain walk with
 * `copyFileSync` does it; Node 20's `cpSync` spends several times longer on per-file checks.
 * Folders keep their permission bits, as files do through copyFile.
 */
function copyTree(from: string, to: string): void {
  mkdirSync(to, { mode: statSync(from).mode & 0o777 });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = join(from, entry.name);
    const target = join(to, entry.name);
    if (entry.isDirectory()) copyTree(source, target);
    else copyFileSync(source, target);
  }
}
