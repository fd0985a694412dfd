import type { DataSource, Migration } from 'typeorm';

/** Arbitrary but fixed: every replica and CLI process contends for the same advisory lock. */
const MIGRATION_LOCK_KEY = 7_301_114_520;

/**
 * Applies pending migrations under a session-level advisory lock held on a dedicated connection,
 * so replicas starting together apply each migration exactly once; the lock is freed in `finally`.
 */
export async function runPendingMigrations(dataSource: DataSource): Promise<Migration[]> {
  const lockRunner = dataSource.createQueryRunner();
  await lockRunner.connect();
  try {
    await lockRunner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      return await dataSource.runMigrations({ transaction: 'each' });
    } finally {
      await lockRunner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    await lockRunner.release();
  }
}
