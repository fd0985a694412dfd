import { parentPort, workerData } from 'node:worker_threads';
import { seedEmbeddedDatabase } from './embedded-seed';

/**
 * Runs `seedEmbeddedDatabase` on its own thread (see `embedded-start.ts`): the copy then proceeds
 * while the main thread loads Nest and the application's modules. A failure is posted back as its
 * code and message, which is all `dataDirFailure` reads.
 */
const { pgliteDir } = workerData as { pgliteDir: string };
try {
  parentPort?.postMessage({ seeded: seedEmbeddedDatabase(pgliteDir) });
} catch (error) {
  const { code, message } = error as NodeJS.ErrnoException;
  parentPort?.postMessage({ error: { code, message: message ?? String(error) } });
}
