import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { PGlite, PGliteOptions } from '@electric-sql/pglite';
import { getPGliteInstance, PGliteDriver } from 'typeorm-pglite';
import { embeddedEngineOptions } from '../database/embedded-engine-options';
import { needsSeed } from './embedded-seed';
import { prepareDataDir } from './preflight';
import { dataDirFailure } from './startup-failure';

/**
 * Called before Nest is required, so the seed copy and PGlite's WebAssembly compilation overlap the
 * ~1 s of module loading. See docs/operations.md, The embedded database's first start.
 */
export async function startEmbeddedDatabase(dataDir: string): Promise<PGlite> {
  const shown = resolve(dataDir);
  const pgliteDir = prepareDataDir(dataDir);
  // A restart has nothing to copy and spares itself the worker.
  const seeded = pgliteDir && isFirstStart(pgliteDir, shown) ? seedOnWorker(pgliteDir, shown) : null;
  const pgliteWasmModule = wasm.compile(readFileSync(pgliteArtifact('pglite.wasm')));
  await seeded;
  new PGliteDriver({ ...embeddedEngineOptions(dataDir), pgliteWasmModule: await pgliteWasmModule });
  return getPGliteInstance();
}

/** Node's WebAssembly global; the project's `lib` (ES2022, no DOM) has no declaration of it. */
const { WebAssembly: wasm } = globalThis as unknown as {
  WebAssembly: { compile(bytes: Uint8Array): Promise<PGliteOptions['pgliteWasmModule']> };
};

function isFirstStart(pgliteDir: string, shown: string): boolean {
  try {
    return needsSeed(pgliteDir);
  } catch (error) {
    throw dataDirFailure(error, shown);
  }
}

function seedOnWorker(pgliteDir: string, shown: string): Promise<void> {
  return new Promise((done, fail) => {
    const worker = new Worker(join(__dirname, 'embedded-seed-worker.js'), { workerData: { pgliteDir } });
    worker.once('message', (result: { error?: { code?: string; message: string } }) => {
      if (!result.error) return done();
      fail(
        dataDirFailure(Object.assign(new Error(result.error.message), { code: result.error.code }), shown),
      );
    });
    worker.once('error', (error) => fail(dataDirFailure(error, shown)));
    worker.once('exit', (code) => fail(new Error(`the embedded seed copy stopped (exit code ${code})`)));
  });
}

/** A file PGlite ships beside its entry point (`dist/pglite.wasm`, `dist/pglite.data`). */
function pgliteArtifact(name: string): string {
  return join(dirname(require.resolve('@electric-sql/pglite')), name);
}
