import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A digest of each title's staged source row, so a re-ingest rewrites only titles whose data
 * changed (comparing every converted column of 1.3M rows dominated a re-ingest's time).
 */
export class TitleSourceHash1763730000000 implements MigrationInterface {
  name = 'TitleSourceHash1763730000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE titles ADD COLUMN source_hash text`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE titles DROP COLUMN source_hash`);
  }
}
