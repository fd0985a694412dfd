import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** Raised when another live process has the embedded database open. */
export class EmbeddedDatabaseBusyError extends Error {}

const held = new Map<string, () => void>();

/**
 * PGlite is one process's database: a second process opening the same folder would corrupt it, and
 * PGlite does not stop it. A lock file with our pid does; a lock left by a dead process is taken over.
 */
export function lockEmbeddedDatabase(dataDir: string): void {
  const path = join(dataDir, 'catalog-api.lock');
  if (held.has(path)) return;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      const release = () => {
        held.delete(path);
        try {
          unlinkSync(path);
        } catch {
          // Already gone.
        }
      };
      held.set(path, release);
      process.once('exit', release);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number(readFileSync(path, 'utf8'));
      if (isAlive(owner)) {
        throw new EmbeddedDatabaseBusyError(
          `The embedded database in ${dataDir} is in use by process ${owner}; stop it first (or use DATABASE_URL to share a PostgreSQL server).`,
        );
      }
      unlinkSync(path);
    }
  }
}

/** Releases every embedded database lock this process holds (after the database is closed). */
export function releaseEmbeddedDatabaseLocks(): void {
  for (const release of [...held.values()]) release();
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
