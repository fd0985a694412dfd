import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Key lifecycle: an optional expiry, and the previous secret of a rotation with the instant it stops
 * working. At most two secrets live per key (the current one and, during an overlap, the previous
 * one); a second rotation within an overlap retires the oldest. The previous hash stays after its end
 * so that secret answers 403 API_KEY_DISABLED, not 401, until the next rotation replaces it.
 */
export class KeyLifecycle1763780000000 implements MigrationInterface {
  name = 'KeyLifecycle1763780000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE api_keys ADD COLUMN expires_at timestamptz`);
    await queryRunner.query(`ALTER TABLE api_keys ADD COLUMN previous_key_hash text`);
    await queryRunner.query(`ALTER TABLE api_keys ADD COLUMN previous_key_ends_at timestamptz`);
    await queryRunner.query(
      `ALTER TABLE api_keys ADD CONSTRAINT api_keys_previous_key_complete
         CHECK ((previous_key_hash IS NULL) = (previous_key_ends_at IS NULL))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE api_keys DROP CONSTRAINT api_keys_previous_key_complete`);
    await queryRunner.query(`ALTER TABLE api_keys DROP COLUMN previous_key_ends_at`);
    await queryRunner.query(`ALTER TABLE api_keys DROP COLUMN previous_key_hash`);
    await queryRunner.query(`ALTER TABLE api_keys DROP COLUMN expires_at`);
  }
}
