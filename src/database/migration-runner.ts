import { type DataSource, type Migration, MigrationExecutor } from 'typeorm';

/** Arbitrary but fixed: every replica and CLI process contends for the same advisory lock. */
const MIGRATION_LOCK_KEY = 7_301_114_520;

/**
 * Migrations in one transaction under a transaction-scoped advisory lock: replicas starting together
 * apply each once, and it works behind a pooler (a session lock would stick to a server connection).
 */
export async function runPendingMigrations(dataSource: DataSource): Promise<Migration[]> {
  if (await allMigrationsApplied(dataSource)) return [];
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.startTransaction();
    try {
      await runner.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
      // On this transaction: the executor reads what is applied after the lock and opens none of its own.
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
 * Fast path when every migration is recorded: two small queries instead of TypeORM's
 * `runMigrations` and its lock; anything else goes the locked way.
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
