import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TEST_ENGINE, type TestDatabase, createTestDatabase } from './test-database';

/**
 * A database a server in a child process can open: a throwaway PostgreSQL database, or for the
 * embedded engine a DATA_DIR of its own (an in-memory PGlite lives in one process only).
 */
export async function createServedDatabase(): Promise<TestDatabase> {
  if (TEST_ENGINE === 'postgres') return createTestDatabase();
  const dataDir = mkdtempSync(join(tmpdir(), 'catalog-served-db-'));
  return {
    config: { kind: 'embedded', dataDir },
    drop: async () => rmSync(dataDir, { recursive: true, force: true }),
  };
}

/** The variables that point `node dist/main.js` at `database`. */
export function databaseEnvironment(database: TestDatabase): NodeJS.ProcessEnv {
  return database.config.kind === 'postgres'
    ? { DATABASE_URL: database.config.url }
    : { DATA_DIR: database.config.dataDir };
}
