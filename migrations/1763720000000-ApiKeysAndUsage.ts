import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * API keys (stored only as a SHA-256 hash, with a short display prefix) and their usage: per-minute
 * windows and monthly quota counters. The windows are UNLOGGED: a crash may forget at most the
 * current minute's count, which only ever lets a key start a fresh minute. Quota usage is logged
 * and durable: it is never lost on restart.
 */
export class ApiKeysAndUsage1763720000000 implements MigrationInterface {
  name = 'ApiKeysAndUsage1763720000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE api_keys (
        id uuid PRIMARY KEY,
        name text NOT NULL CONSTRAINT api_keys_name_not_blank CHECK (length(btrim(name)) > 0),
        key_hash text NOT NULL CONSTRAINT api_keys_key_hash_key UNIQUE,
        prefix text NOT NULL,
        rpm integer NOT NULL CONSTRAINT api_keys_rpm_positive CHECK (rpm >= 1),
        monthly_quota bigint NOT NULL CONSTRAINT api_keys_monthly_quota_positive CHECK (monthly_quota >= 1),
        disabled boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
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
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE quota_usage`);
    await queryRunner.query(`DROP TABLE rate_limit_windows`);
    await queryRunner.query(`DROP TABLE api_keys`);
  }
}
