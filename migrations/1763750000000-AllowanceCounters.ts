import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Counters for reserved allowance (see docs/limits.md): one row per counter key ("minute:<key id>",
 * "month:<key id>"), reused window after window. `reserved` is what replicas have taken from the
 * window, spent or not; `last_grant` is what the latest reservation added.
 * - rate_counters (the minute) is UNLOGGED: a crash may forget the current minute, which only lets
 *   a key start a fresh one.
 * - quota_counters (the month) is logged and durable: reserved counts as used, so a crash can only
 *   over-count a key's month (by at most one unused block), never under-count it.
 * This month's usage moves over from quota_usage; the per-request tables go.
 */
export class AllowanceCounters1763750000000 implements MigrationInterface {
  name = 'AllowanceCounters1763750000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const [table, unlogged] of [
      ['rate_counters', 'UNLOGGED'],
      ['quota_counters', ''],
    ]) {
      await queryRunner.query(`
        CREATE ${unlogged} TABLE ${table} (
          key text PRIMARY KEY,
          reserved bigint NOT NULL CONSTRAINT ${table}_reserved_not_negative CHECK (reserved >= 0),
          last_grant bigint NOT NULL,
          expires_at timestamptz NOT NULL
        )`);
    }
    await queryRunner.query(`
      INSERT INTO quota_counters (key, reserved, last_grant, expires_at)
      SELECT 'month:' || key_id, used, 0, (month + interval '1 month')::timestamp AT TIME ZONE 'UTC'
      FROM quota_usage
      WHERE month = date_trunc('month', now() AT TIME ZONE 'UTC')::date`);
    await queryRunner.query(`DROP TABLE quota_usage`);
    await queryRunner.query(`DROP TABLE rate_limit_windows`);
    // Replicas poll keys by updated_at; keep it current however a key is changed.
    await queryRunner.query(`CREATE INDEX api_keys_updated_at ON api_keys (updated_at)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX api_keys_updated_at`);
    await queryRunner.query(`
      CREATE UNLOGGED TABLE rate_limit_windows (
        key_id uuid NOT NULL,
        window_start timestamptz NOT NULL,
        hits integer NOT NULL,
        PRIMARY KEY (key_id, window_start)
      )`);
    await queryRunner.query(`
      CREATE TABLE quota_usage (
        key_id uuid NOT NULL REFERENCES api_keys (id) ON DELETE CASCADE,
        month date NOT NULL,
        used bigint NOT NULL,
        PRIMARY KEY (key_id, month)
      )`);
    await queryRunner.query(`
      INSERT INTO quota_usage (key_id, month, used)
      SELECT substr(c.key, 7)::uuid, date_trunc('month', now() AT TIME ZONE 'UTC')::date, c.reserved
      FROM quota_counters c JOIN api_keys k ON k.id::text = substr(c.key, 7)
      WHERE c.key LIKE 'month:%' AND c.expires_at > now()`);
    await queryRunner.query(`DROP TABLE quota_counters`);
    await queryRunner.query(`DROP TABLE rate_counters`);
  }
}
