import { TITLE_COLUMNS } from '../src/catalog/title-columns';
import { Database } from '../src/database/database';
import { type TestApp, createTestApp } from './support/test-app';

/**
 * TITLE_COLUMNS describes the titles table that the migrations (history, written by hand) create:
 * the same columns in the same order, with the same types and nullability, on both databases.
 */
describe('title column list against the migrated schema', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('lists exactly the columns of titles, in table order, with their types and NOT NULL', async () => {
    const live = await t.app.get(Database).query<{ column: string; sqlType: string; notNull: boolean }>(
      `SELECT attname AS column, format_type(atttypid, atttypmod) AS "sqlType", attnotnull AS "notNull"
       FROM pg_attribute
       WHERE attrelid = 'titles'::regclass AND attnum > 0 AND NOT attisdropped
       ORDER BY attnum`,
    );
    expect(live).toEqual(TITLE_COLUMNS.map(({ column, sqlType, notNull }) => ({ column, sqlType, notNull })));
  });
});
