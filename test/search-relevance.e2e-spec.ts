import type { TitleRecord } from '../src/catalog/title';
import { type TestApp, createTestApp } from './support/test-app';
import { titleRecord } from './support/titles';

/**
 * On a crafted catalog with real titles and their vote counts (and a few invented ones, tt91…):
 * text tiers first (exact with or without the title's own leading article, only the
 * query's words, an article the query typed set aside, words in order, all words), then votes,
 * then id. Every case holds after a load with the default pair threshold (two-word queries ranked
 * from candidates) and after a re-ingest where every token is "frequent" (two-word queries read
 * the loader's precomputed pair lists).
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
  title('tt0096895', 'Batman', 431_988, { year: 1989 }),
  title('tt0060153', 'Batman', 29_000, { year: 1966 }),
  title('tt0372784', 'Batman Begins', 1_700_000),
  title('tt1877830', 'The Batman', 925_293, { year: 2022 }),
  title('tt0103359', 'Batman: The Animated Series', 130_000, { type: 'tv_series' }),
  // Invented: "Batman" with "the" only in its original title (tier 3 for "the batman").
  title('tt9100004', 'Batman', 1_000, { year: 1943, originalTitle: 'The Bat-Man' }),
  // Invented: no leading article, "the" only inside. Tier 5 for "lord of the rings", 3 for "the lord…".
  title('tt9100005', 'Lord of the Rings', 50_000, { type: 'tv_special' }),
  title('tt0066473', 'Tora! Tora! Tora!', 33_000, { year: 1970 }),
  title('tt9100006', 'Tora', 200),
  title('tt9100007', 'Tora and the Dragon', 100_000),
  title('tt0076451', 'New York, New York', 25_000, { year: 1977 }),
  title('tt0217505', 'Gangs of New York', 500_000),
  title('tt0082340', 'Escape from New York', 150_000),
  title('tt9100008', 'York', 300, { originalTitle: 'New' }),
  title('tt0068646', 'The Godfather', 2_223_605, { year: 1972 }),
  title('tt0071562', 'The Godfather Part II', 1_400_000),
  title('tt9100001', 'Godfather', 8_156, { year: 2022 }),
  title('tt9100002', 'A Godfather Story', 90_000),
  title('tt0345950', 'The SpongeBob SquarePants Movie', 400_000),
  title('tt4823776', 'The SpongeBob Movie: Sponge on the Run', 80_000),
  title('tt9100003', 'SpongeBob: The Movie Special', 500_000),
];

describe.each([
  ['pair lists not built (the default threshold)', undefined],
  ['after a re-ingest with every token frequent (pair lists)', 1],
])('search relevance tiers, %s', (_name, pairMinTitles) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
    if (pairMinTitles !== undefined) await t.writer.replaceCatalog({ titles: CATALOG.slice(0, 5) });
    await t.writer.replaceCatalog({ titles: CATALOG }, { pairMinTitles });
  });
  afterAll(() => t.close());

  const top = async (q: string, n = 3): Promise<string[]> => {
    const res = await t.get(`/v1/search?q=${encodeURIComponent(q)}&limit=${n}`).expect(200);
    return res.body.data.map((item: { imdb_id: string }) => item.imdb_id);
  };

  describe('text tiers first, then votes', () => {
    it('"lord of the rings": the exact titles with or without "The" by votes, then the phrase titles', async () => {
      expect(await top('lord of the rings', 4)).toEqual(['tt9100005', 'tt0077869', 'tt0120737', 'tt0167260']);
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

  describe('a leading article the user did not type does not lower a title', () => {
    it('"godfather": The Godfather and Godfather share the exact tier; votes put The Godfather first', async () => {
      expect(await top('godfather', 4)).toEqual(['tt0068646', 'tt9100001', 'tt0071562', 'tt9100002']);
    });

    it('"batman": The Batman and Batman (1989) are the top 2 by votes, every "Batman" before Batman Begins', async () => {
      expect(await top('batman', 5)).toEqual([
        'tt1877830',
        'tt0096895',
        'tt0060153',
        'tt9100004',
        'tt0372784',
      ]);
    });

    it('an article the user typed: the title with it first, one without it next, then the phrases', async () => {
      // "Batman" (original title "The Bat-Man") holds "the" only elsewhere: below The Batman whatever
      // the votes, and above Batman: The Animated Series (words in order, more votes).
      expect(await top('the batman')).toEqual(['tt1877830', 'tt9100004', 'tt0103359']);
      // Every token must match, so "Godfather" is not a match for "the godfather".
      expect(await top('the godfather', 3)).toEqual(['tt0068646', 'tt0071562']);
      // The 1978 film is exactly what was typed; "Lord of the Rings" is made of the same words.
      expect(await top('the lord of the rings', 3)).toEqual(['tt0077869', 'tt9100005', 'tt0120737']);
    });
  });

  describe("a title made only of the query's words, holding all of them", () => {
    it('"tora": Tora! Tora! Tora! (one repeated word) just below the exact title, above more-voted mentions', async () => {
      expect(await top('tora')).toEqual(['tt9100006', 'tt0066473', 'tt9100007']);
    });

    it('a repeated word in the query: the title typed comes first, the other made of the word next', async () => {
      expect(await top('tora tora tora')).toEqual(['tt0066473', 'tt9100006', 'tt9100007']);
      // Neither is "tora tora" exactly: both are made of its one word, so votes decide.
      expect(await top('tora tora')).toEqual(['tt0066473', 'tt9100006', 'tt9100007']);
    });

    it('"new york": New York, New York above more-voted titles that merely hold the words', async () => {
      // "York" (original title "New") holds the words only between its two titles: all words.
      expect(await top('new york', 4)).toEqual(['tt0076451', 'tt0217505', 'tt0082340', 'tt9100008']);
    });

    it("the query's words in another order: still a title made only of them", async () => {
      expect(await top('york new', 4)).toEqual(['tt0076451', 'tt0217505', 'tt0082340', 'tt9100008']);
    });
  });
});
