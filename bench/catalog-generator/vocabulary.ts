/**
 * The generator's word lists, read from the JSON files in bench/catalog-words/ (described in its
 * README). Lists sampled by rank must be free of repeats: a repeated word would silently take two ranks.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const WORDS_DIR = join(__dirname, '..', 'catalog-words');

function load<T>(file: string): T {
  return JSON.parse(readFileSync(join(WORDS_DIR, file), 'utf8')) as T;
}

/** A list whose order is its frequency rank (most common first). */
function ranked(file: string, name: string, list: readonly string[]): readonly string[] {
  const seen = new Set<string>();
  for (const word of list) {
    if (seen.has(word)) throw new Error(`${file}: "${word}" appears twice in ${name}`);
    seen.add(word);
  }
  return list;
}

interface TitleWordsFile {
  nouns: string[];
  adjectives: string[];
  gerunds: string[];
  verbs: string[];
  functionWords: string[];
  prepositions: string[];
  determiners: string[];
  numbers: string[];
  smallWords: string[];
}

const titles = load<TitleWordsFile>('titles.json');
export const NOUNS = ranked('titles.json', 'nouns', titles.nouns);
export const ADJECTIVES = ranked('titles.json', 'adjectives', titles.adjectives);
export const GERUNDS = ranked('titles.json', 'gerunds', titles.gerunds);
export const VERBS = ranked('titles.json', 'verbs', titles.verbs);
export const FUNCTION_WORDS = ranked('titles.json', 'functionWords', titles.functionWords);
export const PREPOSITIONS = ranked('titles.json', 'prepositions', titles.prepositions);
export const DETERMINERS = ranked('titles.json', 'determiners', titles.determiners);
export const NUMBERS = ranked('titles.json', 'numbers', titles.numbers);
/** Words kept lower-case inside a title. */
export const SMALL_WORDS: ReadonlySet<string> = new Set(titles.smallWords);

interface NamesFile {
  properNames: string[];
  tailSyllables: { onsets: string[]; vowels: string[]; codas: string[] };
  firstNames: string[];
  lastNames: string[];
}

const names = load<NamesFile>('names.json');
/** Hand-written proper names (places, first names) at the head of the long-tail name list. */
export const PROPER_NAMES = ranked('names.json', 'properNames', names.properNames);
/** Syllables for the generated tail of rare proper names ("Valdoria", "Kestrin", ...). */
export const TAIL_SYLLABLES: Readonly<NamesFile['tailSyllables']> = names.tailSyllables;
export const FIRST_NAMES: readonly string[] = names.firstNames;
export const LAST_NAMES: readonly string[] = names.lastNames;

/** A language of "foreign" original titles (Latin-script languages translate word by word). */
export interface Language {
  name: string;
  country: string;
  /** Share of the foreign original titles written in this language (relative weight). */
  weight: number;
  /** Scripts without spaces join words directly (Chinese, Japanese). */
  joiner: string;
  /** Non-Latin languages build a new title from their own words instead of translating. */
  fresh: boolean;
  /** English word → word in this language; words absent are kept (names, rare words). */
  dict: Readonly<Record<string, string>>;
}

export const LANGUAGES: readonly Language[] = load<Language[]>('languages.json');

/** Genre → weight for feature-length titles, in IMDb's genre order; Adult and Short are handled apart. */
export const GENRE_WEIGHTS: Readonly<Record<string, number>> = load<Record<string, number>>('genres.json');

interface PlotsFile {
  subjects: string[];
  /** [verb after a singular subject, verb after a plural subject]. */
  verbs: [string, string][];
  objects: string[];
  settings: string[];
  codas: string[];
  seriesSubjects: string[];
}

export const PLOTS: Readonly<PlotsFile> = load<PlotsFile>('plots.json');

interface OmdbFile {
  contentRatingsMovie: string[];
  contentRatingsTv: string[];
  months: string[];
  languageNames: string[];
  countryNames: string[];
  /** Repeats are weights here: most writers have no role suffix. */
  writerRoles: string[];
}

const omdb = load<OmdbFile>('omdb.json');
export const CONTENT_RATINGS_MOVIE: readonly string[] = omdb.contentRatingsMovie;
export const CONTENT_RATINGS_TV: readonly string[] = omdb.contentRatingsTv;
export const MONTHS: readonly string[] = omdb.months;
export const LANGUAGE_NAMES = ranked('omdb.json', 'languageNames', omdb.languageNames);
export const COUNTRY_NAMES = ranked('omdb.json', 'countryNames', omdb.countryNames);
export const WRITER_ROLES: readonly string[] = omdb.writerRoles;
