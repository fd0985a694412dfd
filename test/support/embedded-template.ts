import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seedEmbeddedDatabase } from '../../src/startup/embedded-seed';

/**
 * The migrated, empty embedded database every e2e file's own database is copied from (set by the
 * e2e project's global setup): a test app on a copy starts in about 1.2 s, against 4.1 s when each
 * ran PGlite's initdb and every migration itself.
 */
const TEMPLATE_VARIABLE = 'CATALOG_E2E_EMBEDDED_TEMPLATE';

export function embeddedTemplate(): string | undefined {
  return process.env[TEMPLATE_VARIABLE] || undefined;
}

export function rememberEmbeddedTemplate(dataDir: string): void {
  process.env[TEMPLATE_VARIABLE] = dataDir;
}

/** A new DATA_DIR holding a copy of the template's database (copied as the server's seed is); the caller removes it. */
export function copyEmbeddedTemplate(template: string): string {
  const dataDir = mkdtempSync(join(tmpdir(), 'catalog-e2e-'));
  const pgliteDir = join(dataDir, 'pglite');
  mkdirSync(pgliteDir);
  if (!seedEmbeddedDatabase(pgliteDir, join(template, 'pglite'))) {
    throw new Error(`The embedded template in ${template} holds no database`);
  }
  return dataDir;
}

export function removeDataDir(dataDir: string): void {
  rmSync(dataDir, { recursive: true, force: true });
}
