import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import type { DatabaseConfig } from '../../src/config/app-config';
import { copyEmbeddedTemplate, embeddedTemplate, removeDataDir } from './embedded-template';

/**
 * Which engine the e2e suites run on: TEST_DATABASE=postgres (a throwaway database per test file on
 * the server at TEST_POSTGRES_URL) or TEST_DATABASE=embedded (PGlite in a throwaway DATA_DIR, copied
 * from the run's migrated template: see embedded-template.ts).
 */
export const TEST_ENGINE: 'postgres' | 'embedded' =
  process.env.TEST_DATABASE === 'embedded' ? 'embedded' : 'postgres';

const ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestDatabase {
  config: DatabaseConfig;
  drop(): Promise<void>;
}

export async function createTestDatabase(): Promise<TestDatabase> {
  if (TEST_ENGINE === 'embedded') {
    const template = embeddedTemplate();
    if (template === undefined)
      throw new Error("No embedded template: run the e2e files through Jest's e2e project");
    const dataDir = copyEmbeddedTemplate(template);
    return { config: { kind: 'embedded', dataDir }, drop: async () => removeDataDir(dataDir) };
  }
  // Only databases this helper names are created and dropped; nothing else on the server is touched.
  const name = `catalog_e2e_${process.pid}_${randomBytes(4).toString('hex')}`;
  await withAdmin((admin) => admin.query(`CREATE DATABASE ${name}`));
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    config: { kind: 'postgres', url: url.toString() },
    drop: () =>
      withAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}

async function withAdmin<T>(work: (admin: Client) => Promise<T>): Promise<T> {
  const admin = new Client({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}
