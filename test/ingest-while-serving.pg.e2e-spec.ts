import { ingestInBackground } from './support/cli';
import { titleRecord } from './support/titles';
import { FixtureFiles, basicsRow, ratingsRow } from './support/imdb-files';
import { type TestApp, createTestApp } from './support/test-app';

/** Readers see the old catalog until the merge commits and the new one after, never a mix. */
describe('serving while a catalog loads', () => {
  let t: TestApp;
  const files = new FixtureFiles();

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
    files.cleanup();
  });

  it('answers every request during the load with either the old or the new catalog', async () => {
    const oldMovies = 2_000;
    const newMovies = 30_000;
    await t.writer.replaceCatalog({
      titles: Array.from({ length: oldMovies }, (_, i) =>
        titleRecord({ imdbId: `tt${1_000_000 + i}`, title: `Old Movie ${i}`, ratingVotes: i }),
      ),
    });
    const basics = files.basics(
      'big.tsv',
      Array.from({ length: newMovies }, (_, i) =>
        basicsRow(`tt${2_000_000 + i}`, 'movie', `New Movie ${i}`, { year: 2000 }),
      ),
    );
    const ratings = files.ratings(
      'big-ratings.tsv',
      Array.from({ length: newMovies }, (_, i) => ratingsRow(`tt${2_000_000 + i}`, '5.0', i)),
    );

    const load = ingestInBackground(t.database.config, { basics, ratings }, 'serving-new');
    const seen: number[] = [];
    while (load.running) {
      const [movies, health] = await Promise.all([t.get('/v1/movies?limit=1'), t.get('/health')]);
      expect(movies.status).toBe(200);
      expect(health.status).toBe(200);
      expect([oldMovies, newMovies]).toContain(movies.body.meta.total_results);
      expect([oldMovies, newMovies]).toContain(health.body.data[0].catalog.title_count);
      seen.push(movies.body.meta.total_results);
    }
    expect((await load.finished).code).toBe(0);
    expect(seen.filter((total) => total === oldMovies).length).toBeGreaterThan(0);
    await t.servesCatalog('serving-new');
    expect((await t.get('/v1/movies?limit=1').expect(200)).body.meta.total_results).toBe(newMovies);
  });
});
