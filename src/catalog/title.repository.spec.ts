import type { CatalogReadDatabase } from '../database/catalog-read-database';
import { TitleRepository } from './title.repository';

/** A catalog read database whose statements the test answers: titles tt1 and tt2 exist, version v7. */
function fakeDatabase() {
  const statements: Array<{ ids: string[]; answer: () => void }> = [];
  const db = {
    primaryOnly: true,
    query: (_sql: string, params: readonly unknown[]) =>
      new Promise((resolve) => {
        const ids = params[0] as string[];
        statements.push({
          ids,
          answer: () =>
            resolve(
              ids.map((imdbId) =>
                ['tt1', 'tt2'].includes(imdbId)
                  ? { catalog_version: 'v7', id: Number(imdbId.slice(2)), imdb_id: imdbId }
                  : { catalog_version: 'v7', id: null, imdb_id: null },
              ),
            ),
        });
      }),
  };
  return { db: db as unknown as CatalogReadDatabase, statements };
}

describe('TitleRepository.findByImdbId', () => {
  it('reads concurrent lookups together, each answered with its own row or null and the version', async () => {
    const { db, statements } = fakeDatabase();
    const titles = new TitleRepository(db);
    const asked = ['tt1', 'tt404', 'tt2', 'tt1', 'tt3'];
    const reads = asked.map((imdbId) => titles.findByImdbId(imdbId));
    expect(statements.map((statement) => statement.ids)).toEqual([['tt1'], ['tt404']]);
    statements[0].answer();
    await reads[0];
    // The three asked while two statements ran go together in the next.
    expect(statements.map((statement) => statement.ids)).toEqual([['tt1'], ['tt404'], ['tt2', 'tt1', 'tt3']]);
    statements[1].answer();
    statements[2].answer();
    const answers = await Promise.all(reads);
    expect(answers.map((answer) => answer.version)).toEqual(['v7', 'v7', 'v7', 'v7', 'v7']);
    expect(answers.map((answer) => answer.row?.imdb_id ?? null)).toEqual(['tt1', null, 'tt2', 'tt1', null]);
  });

  it('answers every id with no version and no row when there is no catalog yet', async () => {
    const db = { primaryOnly: true, query: async () => [] } as unknown as CatalogReadDatabase;
    const titles = new TitleRepository(db);
    expect(await Promise.all([titles.findByImdbId('tt1'), titles.findByImdbId('tt2')])).toEqual([
      { version: null, row: null },
      { version: null, row: null },
    ]);
  });
});
