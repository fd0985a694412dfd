import { ingestInBackground } from './support/cli';
import { FixtureFiles, basicsRow, ratingsRow } from './support/imdb-files';
import { CATALOG_SERVED_WITHIN_MS, type TestApp, createTestApp } from './support/test-app';
import { eventually } from './support/timing';
import { titleRecord } from './support/titles';

const LABEL = 'same-label';
const ID = 'tt5100001';
const OTHER = 'tt5100002';
const TARGETS = [`/v1/titles/${ID}`, '/v1/movies?limit=5', '/v1/search?q=quiet'] as const;

/**
 * Freshness follows the load, not its label: a load that keeps `--catalog-version` but changes the
 * content replaces every cached answer and ETag within the contract's second, like any other load.
 * On PostgreSQL the load runs in its own `catalog:ingest` process, as operators run it, so this
 * server learns of it as every replica does; the embedded database admits one process, so there the
 * server loads it itself.
 */
describe('a load under the catalog version label already served', () => {
  let t: TestApp;
  const files = new FixtureFiles();
  let loads = 0;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
    files.cleanup();
  });

  /** Loads the two titles, `ID` named `title`, under LABEL; resolves once the load has committed. */
  async function load(title: string): Promise<void> {
    loads++;
    if (t.database.config.kind === 'postgres') {
      const basics = files.basics(`basics-${loads}.tsv`, [
        basicsRow(ID, 'movie', title, { year: 1990 }),
        basicsRow(OTHER, 'movie', 'Quiet Neighbour', { year: 1991 }),
      ]);
      const ratings = files.ratings(`ratings-${loads}.tsv`, [
        ratingsRow(ID, '7.0', 200),
        ratingsRow(OTHER, '6.0', 100),
      ]);
      const result = await ingestInBackground(t.database.config, { basics, ratings }, LABEL).finished;
      expect(result).toMatchObject({ code: 0 });
      return;
    }
    await t.writer.replaceCatalog(
      {
        titles: [
          titleRecord({ imdbId: ID, title, year: 1990, ratingAverage: 7, ratingVotes: 200 }),
          titleRecord({
            imdbId: OTHER,
            title: 'Quiet Neighbour',
            year: 1991,
            ratingAverage: 6,
            ratingVotes: 100,
          }),
        ],
      },
      { catalogVersion: LABEL },
    );
  }

  /** Each target's answer and ETag, asked twice so every cache keeps it (second-miss admission). */
  async function answers(): Promise<Map<string, { body: string; etag: string }>> {
    const found = new Map<string, { body: string; etag: string }>();
    for (const target of TARGETS) {
      await t.get(target).expect(200);
      const res = await t.get(target).expect(200);
      expect(res.headers.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
      found.set(target, { body: JSON.stringify(res.body.data), etag: res.headers.etag });
    }
    return found;
  }

  /** Whether every target answers with `title` and sends a 200 to a copy tagged before the load. */
  async function servesLoad(title: string, before: Map<string, { etag: string }>): Promise<boolean> {
    for (const target of TARGETS) {
      const res = await t.get(target).set('If-None-Match', before.get(target)!.etag);
      if (res.status !== 200 || !JSON.stringify(res.body.data).includes(title)) return false;
      if (res.headers.etag === before.get(target)!.etag) return false;
    }
    return true;
  }

  it('serves the new content and answers an old ETag 200 within a second, load after load', async () => {
    await load('Quiet Harbour');
    await t.servesCatalog(LABEL);
    const first = await answers();
    for (const target of TARGETS) {
      expect(first.get(target)!.body).toContain('Quiet Harbour');
      await t.get(target).set('If-None-Match', first.get(target)!.etag).expect(304);
    }

    // Changed content, the same label: /health's catalog_version does not change, the answers must.
    await load('Quiet Summit');
    await eventually(() => servesLoad('Quiet Summit', first), CATALOG_SERVED_WITHIN_MS, 20);
    const second = await answers();
    for (const target of TARGETS) {
      expect(second.get(target)!.body).not.toContain('Quiet Harbour');
      await t.get(target).set('If-None-Match', second.get(target)!.etag).expect(304);
    }
    expect((await t.http().get('/health').expect(200)).body.data[0].catalog.catalog_version).toBe(LABEL);

    // The same content and label once more: still another load, so still another tag.
    await load('Quiet Summit');
    await eventually(() => servesLoad('Quiet Summit', second), CATALOG_SERVED_WITHIN_MS, 20);
    const third = await answers();
    for (const target of TARGETS) {
      expect(third.get(target)!.body).toBe(second.get(target)!.body);
      expect(third.get(target)!.etag).not.toBe(second.get(target)!.etag);
    }
  }, 60_000);
});
