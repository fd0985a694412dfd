import type { DataSource, Migration } from 'typeorm';

/** Arbitrary but fixed: every replica and CLI process contends for the same advisory lock. */
const MIGRATION_LOCK_KEY = 7_301_114_520;

/**
 * Applies pending migrations under a session-level advisory lock held on a dedicated connection,
 * so replicas starting together apply each migration exactly once; the lock is freed in `finally`.
 */
export async function runPendingMigrations(dataSource: DataSource): Promise<Migration[]> {
  if (await allMigrationsApplied(dataSource)) return [];
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

/**
 * The usual start: every migration this build knows is recorded already. Two small queries answer
 * that, where TypeORM's `runMigrations` (and its lock) costs several catalog lookups; anything else
 * (no table yet, a migration missing) goes the locked way above.
 */
async function allMigrationsApplied(dataSource: DataSource): Promise<boolean> {
  const table = dataSource.options.migrationsTableName ?? 'migrations';
  const [{ present }] = await dataSource.query<{ present: boolean }[]>(
    'SELECT to_regclass($1) IS NOT NULL AS present',
    [table],
  );
  if (!present) return false;
  const rows = await dataSource.query<{ name: string }[]>(`SELECT name FROM "${table}"`);
  const applied = new Set(rows.map((row) => row.name));
  return dataSource.migrations.every((migration) =>
    applied.has(migration.name ?? migration.constructor.name),
  );
}
