import { ingestInBackground } from './support/cli';
import { FixtureFiles, basicsRow, ratingsRow } from './support/imdb-files';
import { type TestApp, createTestApp } from './support/test-app';
import { titleRecord } from './support/titles';

/**
 * Title lookups are served from a cache keyed by catalog load (version label and load number).
 * While another process loads a new catalog, every answer is wholly the old or wholly the new
 * title, and its ETag is that catalog's: a tag never names two different answers.
 */
describe('cached title lookups while a catalog loads', () => {
  let t: TestApp;
  const files = new FixtureFiles();
  const TITLES = 300;
  const id = (i: number) => `tt${3_000_000 + i}`;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
    files.cleanup();
  });

  it('answers each lookup wholly from one catalog, with that catalog’s tag', async () => {
    await t.writer.replaceCatalog(
      {
        titles: Array.from({ length: TITLES }, (_, i) =>
          titleRecord({ imdbId: id(i), title: `Old Movie ${i}`, ratingVotes: i }),
        ),
      },
      { catalogVersion: 'cache-old' },
    );
    const oldTags = new Map<string, string>();
    for (let i = 0; i < TITLES; i++) {
      const res = await t.get(`/v1/titles/${id(i)}`).expect(200);
      oldTags.set(id(i), res.headers.etag);
    }
    // Bulk of the new load: many other titles, so the merge takes a while.
    const extra = 20_000;
    const basics = files.basics('cache-new.tsv', [
      ...Array.from({ length: TITLES }, (_, i) =>
        basicsRow(id(i), 'movie', `New Movie ${i}`, { year: 2001 }),
      ),
      ...Array.from({ length: extra }, (_, i) => basicsRow(`tt${4_000_000 + i}`, 'movie', `Filler ${i}`)),
    ]);
    const ratings = files.ratings('cache-new-ratings.tsv', [ratingsRow(id(0), '5.0', 1)]);

    const load = ingestInBackground(t.database.config, { basics, ratings }, 'cache-new');
    const answerOfTag = new Map<string, string>();
    const seen = { old: 0, new: 0 };
    let round = 0;
    while (load.running) {
      const ids = Array.from({ length: 8 }, (_, k) => id((round * 8 + k) % TITLES));
      round++;
      for (const res of await Promise.all(ids.map((imdbId) => t.get(`/v1/titles/${imdbId}`)))) {
        expect(res.status).toBe(200);
        const { imdb_id: imdbId, title, year } = res.body.data[0];
        const i = Number(imdbId.slice(2)) - 3_000_000;
        const old = title === `Old Movie ${i}`;
        // Wholly one catalog: the new title always comes with the new year.
        expect(old ? [`Old Movie ${i}`, null] : [`New Movie ${i}`, 2001]).toEqual([title, year]);
        if (old) expect(res.headers.etag).toBe(oldTags.get(imdbId));
        else expect(res.headers.etag).not.toBe(oldTags.get(imdbId));
        const answer = `${title}/${year}`;
        expect(answerOfTag.get(res.headers.etag) ?? answer).toBe(answer);
        answerOfTag.set(res.headers.etag, answer);
        seen[old ? 'old' : 'new']++;
      }
    }
    expect((await load.finished).code).toBe(0);
    expect(seen.old).toBeGreaterThan(0);
    await t.servesCatalog('cache-new');
    for (let i = 0; i < TITLES; i += 37) {
      const res = await t.get(`/v1/titles/${id(i)}`).expect(200);
      expect(res.body.data[0].title).toBe(`New Movie ${i}`);
      await t
        .get(`/v1/titles/${id(i)}`)
        .set('If-None-Match', oldTags.get(id(i))!)
        .expect(200);
      await t
        .get(`/v1/titles/${id(i)}`)
        .set('If-None-Match', res.headers.etag)
        .expect(304);
    }
  });
});
