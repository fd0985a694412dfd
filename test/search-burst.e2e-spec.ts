import type { AddressInfo } from 'node:net';
import { type TestApp, createTestApp } from './support/test-app';
import { walkSearchFromAnotherProcess } from './support/search-walks';
import { titleRecord } from './support/titles';

/** Titles the walked search matches, and as many it does not. */
const MATCHES = 30;
const WALKERS = 64;
const CATALOG = Array.from({ length: 2 * MATCHES }, (_, i) =>
  titleRecord({
    imdbId: `tt${7_700_000 + i}`,
    title: i < MATCHES ? `Burst River ${i}` : `Quiet Lake ${i}`,
    ratingAverage: 7,
    ratingVotes: 1_000 + ((i * 37) % 500),
  }),
);

/**
 * A burst is not an overload: a web page fetching result pages for a handful of users makes many
 * searches at once, each client waiting for its answer. 64 clients each walk every page of one search
 * (`limit` 1 to 20 across clients), one request at a time each, on an idle replica: every answer is
 * 200, and every walk sees the whole result in one order. The clients run in a process of their own,
 * as they run on other hosts: in this one, the replica's event loop would also read all their answers.
 */
describe('a burst of searches', () => {
  let t: TestApp;
  let origin: string;

  beforeAll(async () => {
    t = await createTestApp();
    await t.writer.replaceCatalog({ titles: CATALOG });
    await t.app.listen(0, '127.0.0.1');
    origin = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await t.close();
  });

  it(`serves ${WALKERS} clients each walking every page of a search`, async () => {
    const { statuses, walks } = await walkSearchFromAnotherProcess({
      origin,
      key: t.key,
      query: 'q=burst+river',
      limits: Array.from({ length: WALKERS }, (_, i) => 1 + (i % 20)),
    });

    expect(statuses).toEqual({ 200: expect.any(Number) });
    expect(new Set(walks[0]).size).toBe(MATCHES);
    for (const seen of walks) expect(seen).toEqual(walks[0]);
  });
});
