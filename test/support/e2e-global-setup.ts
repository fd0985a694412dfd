import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliEnvironment, runCli } from './cli';
import { rememberEmbeddedTemplate } from './embedded-template';
import { TEST_ENGINE } from './test-database';

/**
 * Once per run of the e2e project on the embedded database: migrates a fresh DATA_DIR with the built
 * CLI (`db:migrate`, as an operator would) for `createTestDatabase` to copy.
 */
export default async function buildEmbeddedTemplate(): Promise<void> {
  if (TEST_ENGINE !== 'embedded') return;
  const dataDir = mkdtempSync(join(tmpdir(), 'catalog-e2e-template-'));
  const migrated = await runCli(['db:migrate'], cliEnvironment({ kind: 'embedded', dataDir }));
  if (migrated.code !== 0) {
    throw new Error(
      `db:migrate of the e2e template failed (is dist/ built? npm run build):\n${migrated.stderr}`,
    );
  }
  rememberEmbeddedTemplate(dataDir);
}
