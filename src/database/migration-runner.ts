import { type DataSource, type Migration, MigrationExecutor } from 'typeorm';

/** Arbitrary but fixed: every replica and CLI process contends for the same advisory lock. */
const MIGRATION_LOCK_KEY = 7_301_114_520;

/**
 * Applies pending migrations in one transaction that first takes a transaction-scoped advisory
 * lock, so replicas starting together apply each migration exactly once, and the lock lives and
 * ends with the transaction: valid behind a transaction pooler, where a session-level lock would
 * stay on whichever server connection took it. TypeORM's executor reads what is applied after the
 * lock, on the same transaction, and starts none of its own (`transaction: 'all'` on a runner
 * already in one).
 */
export async function runPendingMigrations(dataSource: DataSource): Promise<Migration[]> {
  if (await allMigrationsApplied(dataSource)) return [];
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.startTransaction();
    try {
      await runner.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
      const executor = new MigrationExecutor(dataSource, runner);
      executor.transaction = 'all';
      const applied = await executor.executePendingMigrations();
      await runner.commitTransaction();
      return applied;
    } catch (error) {
      await runner.rollbackTransaction().catch(() => undefined);
      throw error;
    }
  } finally {
    await runner.release();
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
