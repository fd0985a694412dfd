import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * catalog_state.load_number: counts the committed catalog loads, one more with each. Caches and
 * ETags are keyed by the catalog version label and this number together, so a load under a label
 * already served (`--catalog-version` unchanged, the content changed) still replaces every cached
 * answer and tag. A catalog loaded before this migration is load 0 until its next load.
 */
export class CatalogLoadNumber1763770000000 implements MigrationInterface {
  name = 'CatalogLoadNumber1763770000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE catalog_state ADD COLUMN load_number bigint NOT NULL DEFAULT 0`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE catalog_state DROP COLUMN load_number`);
  }
}
