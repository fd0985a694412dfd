import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Search and list storage beside the wide titles row. Both tables are derived:
 * every catalog load rebuilds them under a temporary name and swaps them in, in its transaction, so
 * their indexes are written here once and copied by the loader.
 *
 * - title_search: one narrow row per title with what relevance compares (token keys of the title and
 *   the original title, with and without a leading article), the title's position in the whole
 *   catalog by votes then id (vote_rank), and its position in its list family (list_rank), so a
 *   page of /v1/movies or /v1/series is an index range.
 * - search_lists: per search key (a token, or two frequent tokens "a b"), the matching title ids in
 *   the exact search order, whole (year 0) and per start year, and per type. A page is a slice.
 *
 * The titles row no longer carries search columns or list indexes; catalog_state records the
 * threshold above which pairs of tokens have their own lists.
 */
export class SearchTables1763740000000 implements MigrationInterface {
  name = 'SearchTables1763740000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE titles DROP COLUMN search_vector`);
    await queryRunner.query(`ALTER TABLE titles DROP COLUMN search_title_key`);
    await queryRunner.query(`ALTER TABLE titles DROP COLUMN search_original_key`);
    await queryRunner.query(`DROP INDEX titles_movies_by_votes_idx`);
    await queryRunner.query(`DROP INDEX titles_series_by_votes_idx`);

    await queryRunner.query(`
      CREATE TABLE title_search (
        id integer NOT NULL,
        type text NOT NULL,
        year integer,
        votes integer NOT NULL,
        vote_rank integer NOT NULL,
        family text NOT NULL,
        list_rank integer NOT NULL,
        lexemes text[] NOT NULL,
        title_key text NOT NULL,
        title_bare_key text NOT NULL,
        original_key text,
        original_bare_key text
      )`);
    await queryRunner.query(`CREATE UNIQUE INDEX title_search_id_key ON title_search (id)`);
    await queryRunner.query(`CREATE UNIQUE INDEX title_search_list_key ON title_search (family, list_rank)`);

    await queryRunner.query(`
      CREATE TABLE search_lists (
        key text COLLATE "C" NOT NULL,
        year integer NOT NULL,
        total integer NOT NULL,
        ids integer[] NOT NULL,
        movie integer[],
        tv_movie integer[],
        tv_series integer[],
        tv_mini_series integer[],
        tv_special integer[]
      )`);
    // Uncompressed: a page reads a slice of a list, and decompressing would cost more than it saves.
    for (const column of ['ids', 'movie', 'tv_movie', 'tv_series', 'tv_mini_series', 'tv_special']) {
      await queryRunner.query(`ALTER TABLE search_lists ALTER COLUMN ${column} SET STORAGE EXTERNAL`);
    }
    await queryRunner.query(`CREATE UNIQUE INDEX search_lists_key ON search_lists (key, year)`);

    await queryRunner.query(`ALTER TABLE catalog_state ADD COLUMN search_pair_min_titles integer`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE catalog_state DROP COLUMN search_pair_min_titles`);
    await queryRunner.query(`DROP TABLE search_lists`);
    await queryRunner.query(`DROP TABLE title_search`);
    await queryRunner.query(`
      CREATE INDEX titles_movies_by_votes_idx ON titles (rating_votes DESC, id)
      WHERE type IN ('movie', 'tv_movie')`);
    await queryRunner.query(`
      CREATE INDEX titles_series_by_votes_idx ON titles (rating_votes DESC, id)
      WHERE type IN ('tv_series', 'tv_mini_series', 'tv_special')`);
    await queryRunner.query(`ALTER TABLE titles ADD COLUMN search_vector tsvector NOT NULL DEFAULT ''`);
    await queryRunner.query(`ALTER TABLE titles ADD COLUMN search_title_key text NOT NULL DEFAULT ''`);
    await queryRunner.query(`ALTER TABLE titles ADD COLUMN search_original_key text`);
    await queryRunner.query(`CREATE INDEX titles_search_vector_idx ON titles USING gin (search_vector)`);
  }
}
