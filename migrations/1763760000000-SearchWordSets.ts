import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The word sets relevance compares for "a title made only of the query's words": per
 * title_search row, the distinct words of its title and of its original title, each with and
 * without its leading article, sorted and joined by spaces. Every catalog load fills them; a
 * catalog loaded before this migration has none (and its lists the previous tiers) until its next
 * `catalog:ingest`.
 */
export class SearchWordSets1763760000000 implements MigrationInterface {
  name = 'SearchWordSets1763760000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE title_search ADD COLUMN word_sets text[] NOT NULL DEFAULT '{}'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE title_search DROP COLUMN word_sets`);
  }
}
