import type { TitleRecord } from '../src/catalog/title';
import { type TestApp, createTestApp } from './support/test-app';
import { titleRecord } from './support/titles';

/**
 * Issue 14's table, on a crafted catalog with the real titles and vote counts: text tiers first
 * (exact, article-less, words in order, all words), then votes, then id.
 */
const title = (
  imdbId: string,
  name: string,
  ratingVotes: number,
  extra: Partial<TitleRecord> = {},
): TitleRecord => titleRecord({ imdbId, title: name, ratingVotes, ratingAverage: 7, ...extra });

const CATALOG: TitleRecord[] = [
  title('tt0077869', 'The Lord of the Rings', 39_000, { year: 1978 }),
  title('tt7631058', 'The Lord of the Rings: The Rings of Power', 439_000, { type: 'tv_series' }),
  title('tt0120737', 'The Lord of the Rings: The Fellowship of the Ring', 2_200_000),
  title('tt0167260', 'The Lord of the Rings: The Return of the King', 2_000_000),
  title('tt0076759', 'Star Wars: Episode IV - A New Hope', 1_570_000, { originalTitle: 'Star Wars' }),
  title('tt0080684', 'Star Wars: Episode V - The Empire Strikes Back', 1_500_000),
  title('tt2930604', 'Star Wars: Rebels', 69_000, { type: 'tv_series' }),
  title('tt0458290', 'Star Wars: Clone Wars', 32_000, { type: 'tv_series' }),
  title('tt27575536', 'Star Wars: Tales of the Empire', 17_000, { type: 'tv_mini_series' }),
  title('tt0087182', 'Dune', 193_000, { year: 1984 }),
  title('tt0142032', 'Dune', 26_000, { type: 'tv_mini_series', year: 2000 }),
  title('tt10466872', 'Dune: Prophecy', 68_000, { type: 'tv_series' }),
  title('tt1160419', 'Dune: Part One', 1_000_000, { originalTitle: 'Dune', year: 2021 }),
  title('tt0088247', 'The Terminator', 1_000_000),
  title('tt0438488', 'Terminator Salvation', 393_000),
  title('tt1340138', 'Terminator Genisys', 307_000),
  title('tt0103064', 'Terminator 2: Judgment Day', 1_300_000),
  title('tt0096895', 'Batman', 432_000, { year: 1989 }),
  title('tt0060153', 'Batman', 29_000, { year: 1966 }),
  title('tt0372784', 'Batman Begins', 1_700_000),
  title('tt1877830', 'The Batman', 925_000),
  title('tt0068646', 'The Godfather', 2_100_000),
  title('tt0071562', 'The Godfather Part II', 1_400_000),
  title('tt9100001', 'Godfather', 500),
  title('tt9100002', 'A Godfather Story', 90_000),
  title('tt0345950', 'The SpongeBob SquarePants Movie', 400_000),
  title('tt4823776', 'The SpongeBob Movie: Sponge on the Run', 80_000),
  title('tt9100003', 'SpongeBob: The Movie Special', 500_000),
];

describe('search relevance tiers (issue 14)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
    await t.writer.replaceCatalog({ titles: CATALOG });
  });
  afterAll(() => t.close());

  const top = async (q: string, n = 3): Promise<string[]> => {
    const res = await t.get(`/v1/search?q=${encodeURIComponent(q)}&limit=${n}`).expect(200);
    return res.body.data.map((item: { imdb_id: string }) => item.imdb_id);
  };

  it('"lord of the rings": the article-less exact title, then the phrase titles by votes', async () => {
    expect(await top('lord of the rings', 4)).toEqual(['tt0077869', 'tt0120737', 'tt0167260', 'tt7631058']);
  });

  it('"star wars": the original-title match, then The Empire Strikes Back', async () => {
    expect(await top('star wars')).toEqual(['tt0076759', 'tt0080684', 'tt2930604']);
  });

  it('"star wars empire": words anywhere, so votes decide: Empire Strikes Back first', async () => {
    expect(await top('star wars empire')).toEqual(['tt0080684', 'tt27575536']);
  });

  it('"dune": Dune: Part One (original title "Dune") within the top 3', async () => {
    expect(await top('dune')).toEqual(['tt1160419', 'tt0087182', 'tt0142032']);
  });

  it('"terminator": The Terminator, then Terminator 2 before the lesser sequels', async () => {
    expect(await top('terminator')).toEqual(['tt0088247', 'tt0103064', 'tt0438488']);
  });

  it('"batman": the exact titles, then The Batman, then Batman Begins', async () => {
    expect(await top('batman', 4)).toEqual(['tt0096895', 'tt0060153', 'tt1877830', 'tt0372784']);
  });

  it('an exact title stays first even with fewer votes; the article-less one follows', async () => {
    expect(await top('godfather', 4)).toEqual(['tt9100001', 'tt0068646', 'tt0071562', 'tt9100002']);
    // Every token must match, so "Godfather" is not a match for "the godfather".
    expect(await top('the godfather', 3)).toEqual(['tt0068646', 'tt0071562']);
  });

  it('a phrase ranks above the same words scattered, wherever it stands in the title', async () => {
    expect(await top('empire strikes', 1)).toEqual(['tt0080684']);
    expect(await top('the empire', 2)).toEqual(['tt0080684', 'tt27575536']);
  });

  it("the words in the query's order, even apart, rank above the same words in another order", async () => {
    // "The SpongeBob SquarePants Movie" holds the, spongebob, movie in order (a word between);
    // "SpongeBob: The Movie Special" holds them too, but "the" after "spongebob": votes cannot lift it.
    expect(await top('the spongebob movie')).toEqual(['tt0345950', 'tt4823776', 'tt9100003']);
    // Without "the", all three hold the words in order: one tier, so votes decide.
    expect(await top('spongebob movie')).toEqual(['tt9100003', 'tt0345950', 'tt4823776']);
  });
});
