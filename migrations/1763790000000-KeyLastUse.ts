import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The UTC day a key was last used, on its monthly counter's row: stamped by the statements that
 * already write that row (a block's reservation, and unspent allowance going back), so recording it
 * costs no statement of its own. Null until the key's first counted request after this migration;
 * the column is nullable with no default, so adding it rewrites nothing on an existing database.
 */
export class KeyLastUse1763790000000 implements MigrationInterface {
  name = 'KeyLastUse1763790000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE quota_counters ADD COLUMN last_used_on date`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE quota_counters DROP COLUMN last_used_on`);
  }
}
