import { parentPort, workerData } from 'node:worker_threads';
import { seedEmbeddedDatabase } from './embedded-seed';

/**
 * Seeds on a worker so the copy overlaps loading Nest; a failure posts back only the code and
 * message `dataDirFailure` reads.
 */
const { pgliteDir } = workerData as { pgliteDir: string };
try {
  parentPort?.postMessage({ seeded: seedEmbeddedDatabase(pgliteDir) });
} catch (error) {
  const { code, message } = error as NodeJS.ErrnoException;
  parentPort?.postMessage({ error: { code, message: message ?? String(error) } });
}
