/**
 * Deterministic generator of a synthetic IMDb-format catalog of any size, for load and search
 * benchmarks of the importer and the API.
 *
 *   npx ts-node --transpile-only bench/generate-catalog.ts --titles 1300000 --out bench/out/catalog-1.3m \
 *     [--seed 42] [--enrichment-ratio 1.0] [--episode-enrichment-ratio 0.01] [--gzip]
 *
 * Writes into --out (created if missing):
 *   title.basics.tsv    IMDb layout, header + one row per title, sorted by numeric tconst
 *   title.ratings.tsv   IMDb layout, ~85% of the titles
 *   enrichment.ndjson   one OMDb "by id" object per line
 * or the same names with `.gz` when --gzip is given.
 *
 * --titles counts every basics row, including the ~30% of rows of types the importer must skip
 * (tvEpisode, short, video, videoGame, tvShort, tvPilot); the kept types make up the other ~70%.
 *
 * Determinism: one seeded PRNG (mulberry32) per output concern, so the same arguments give
 * byte-identical files, and basics/ratings do not change when only the enrichment ratios change.
 * Memory stays flat: rows are generated one at a time and written in ~256 KB chunks that respect
 * the streams' backpressure.
 */
import { once } from 'node:events';
import { createWriteStream, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { finished, pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { createGzip } from 'node:zlib';
import {
  ADJECTIVES,
  CONTENT_RATINGS_MOVIE,
  CONTENT_RATINGS_TV,
  COUNTRY_NAMES,
  DETERMINERS,
  FIRST_NAMES,
  FUNCTION_WORDS as FUNCTION,
  GENRE_WEIGHTS as GENRE_TABLE,
  GERUNDS,
  LANGUAGE_NAMES,
  LANGUAGES,
  type Language,
  LAST_NAMES,
  MONTHS,
  NOUNS,
  NUMBERS,
  PLOTS,
  PREPOSITIONS,
  PROPER_NAMES,
  SMALL_WORDS,
  TAIL_SYLLABLES,
  VERBS,
  WRITER_ROLES,
} from './catalog-generator/vocabulary';

// ---------------------------------------------------------------------------------------------
// PRNG and sampling helpers
// ---------------------------------------------------------------------------------------------

type Rng = () => number;

/** mulberry32: tiny, fast, good enough for test data; returns floats in [0, 1). */
function mulberry32(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Derives independent 32-bit seeds for the separate streams from the user seed. */
function deriveSeed(seed: number, stream: number): number {
  let h = (Math.imul(seed >>> 0, 0x9e3779b1) ^ Math.imul(stream + 1, 0x85ebca6b)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d) >>> 0;
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b) >>> 0;
  return (h ^ (h >>> 16)) >>> 0;
}

function int(rng: Rng, min: number, max: number): number {
  return min + Math.floor(rng() * (max - min + 1));
}

function pick<T>(rng: Rng, items: readonly T[]): T {
  return items[Math.floor(rng() * items.length)];
}

function normal(rng: Rng, mean: number, sd: number): number {
  const u = 1 - rng();
  const v = rng();
  return mean + sd * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

function clamp(value: number, min: number, max: number): number {
  return value < min ? min : value > max ? max : value;
}

/** Samples from a cumulative weight table by binary search. */
class CdfSampler<T> {
  private readonly cdf: Float64Array;

  constructor(
    readonly items: readonly T[],
    weights: readonly number[],
  ) {
    if (items.length === 0 || items.length !== weights.length) throw new Error('bad sampler table');
    this.cdf = new Float64Array(items.length);
    let total = 0;
    for (let i = 0; i < weights.length; i++) {
      total += weights[i];
      this.cdf[i] = total;
    }
    for (let i = 0; i < this.cdf.length; i++) this.cdf[i] /= total;
  }

  index(rng: Rng): number {
    const x = rng();
    let lo = 0;
    let hi = this.cdf.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.cdf[mid] > x) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  sample(rng: Rng): T {
    return this.items[this.index(rng)];
  }
}

/** Zipf–Mandelbrot law over an ordered list: weight of rank r (1-based) is 1 / (r + q)^s. */
function zipf<T>(items: readonly T[], s: number, q = 0): CdfSampler<T> {
  return new CdfSampler(
    items,
    items.map((_, i) => 1 / Math.pow(i + 1 + q, s)),
  );
}

function weighted<T extends string>(table: Readonly<Record<T, number>>): CdfSampler<T> {
  const keys = Object.keys(table) as T[];
  return new CdfSampler(
    keys,
    keys.map((k) => table[k]),
  );
}

// ---------------------------------------------------------------------------------------------
// Vocabulary (the word lists are data in bench/catalog-words/, see its README)
// ---------------------------------------------------------------------------------------------

const { onsets: ONSETS, vowels: VOWELS, codas: CODAS } = TAIL_SYLLABLES;

function buildTailNames(count: number, rng: Rng): string[] {
  const seen = new Set<string>(PROPER_NAMES);
  const out: string[] = [];
  while (out.length < count) {
    const syllables = int(rng, 2, 3);
    let name = '';
    for (let i = 0; i < syllables; i++) name += pick(rng, ONSETS) + pick(rng, VOWELS);
    name += pick(rng, CODAS);
    if (rng() < 0.04) name = name.replace(/e/, 'é').replace(/o/, 'ö');
    if (!seen.has(name)) {
      seen.add(name);
      out.push(name);
    }
  }
  return out;
}

const LANGUAGE_WEIGHTS = LANGUAGES.map((l) => l.weight);
const GENRES = Object.keys(GENRE_TABLE);
const GENRE_WEIGHTS = Object.values(GENRE_TABLE);
const {
  subjects: PLOT_SUBJECTS,
  verbs: PLOT_VERBS,
  objects: PLOT_OBJECTS,
  settings: PLOT_SETTINGS,
  codas: PLOT_CODAS,
  seriesSubjects: SERIES_SUBJECTS,
} = PLOTS;
const PLURAL_SUBJECT = /^(Two|Three|A group|A pair)/;
const POSTER_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

// ---------------------------------------------------------------------------------------------
// Title types
// ---------------------------------------------------------------------------------------------

type ImdbType =
  | 'movie'
  | 'tvSeries'
  | 'tvMiniSeries'
  | 'tvMovie'
  | 'tvSpecial'
  | 'tvEpisode'
  | 'short'
  | 'video'
  | 'videoGame'
  | 'tvShort'
  | 'tvPilot';

const KEPT_TYPES: ReadonlySet<ImdbType> = new Set<ImdbType>([
  'movie',
  'tvSeries',
  'tvMiniSeries',
  'tvMovie',
  'tvSpecial',
]);

/** Share of all basics rows per type: 70% kept, 30% excluded. */
const TYPE_MIX = weighted<ImdbType>({
  movie: 45,
  tvSeries: 12,
  tvMiniSeries: 3,
  tvMovie: 8,
  tvSpecial: 2,
  tvEpisode: 19.9,
  short: 5,
  video: 3,
  videoGame: 1,
  tvShort: 1,
  tvPilot: 0.1,
});

// ---------------------------------------------------------------------------------------------
// Generator
// ---------------------------------------------------------------------------------------------

interface Options {
  titles: number;
  out: string;
  seed: number;
  enrichmentRatio: number;
  episodeEnrichmentRatio: number;
  gzip: boolean;
}

interface TitleRow {
  id: string;
  type: ImdbType;
  title: string;
  original: string;
  language: Language | null;
  isAdult: boolean;
  startYear: number | null;
  endYear: number | null;
  runtime: number | null;
  genres: string[] | null;
  rating: number | null;
  votes: number;
}

const NULL = '\\N';

class CatalogGenerator {
  private readonly nouns = zipf(NOUNS, 1.0, 9);
  private readonly adjectives = zipf(ADJECTIVES, 1.0, 4);
  private readonly gerunds = zipf(GERUNDS, 1.0, 2);
  private readonly verbs = zipf(VERBS, 1.0, 2);
  private readonly functionWords = zipf(FUNCTION, 1.0, 1);
  private readonly prepositions = zipf(PREPOSITIONS, 1.0, 1);
  private readonly determiners = zipf(DETERMINERS, 1.0, 1);
  private readonly numbers = zipf(NUMBERS, 1.0, 1);
  private readonly names: CdfSampler<string>;
  private readonly languages = new CdfSampler(LANGUAGES, LANGUAGE_WEIGHTS);
  private readonly languageWords = LANGUAGES.map((l) => Object.values(l.dict));
  private readonly genreSampler = new CdfSampler(GENRES, GENRE_WEIGHTS);
  private readonly people: CdfSampler<number>;
  private readonly languageNames = zipf(LANGUAGE_NAMES, 1.3, 0);
  private readonly countryNames = zipf(COUNTRY_NAMES, 1.3, 0);
  /** Title templates (N noun, A adjective, P proper name, G gerund, V verb, D determiner, PREP preposition). */
  // Tuned so that about 17% of kept titles contain "the" and about 3% contain "love".
  private readonly templates = weighted({
    N: 17,
    AN: 15,
    theN: 4,
    theAN: 3.5,
    NofN: 3,
    NoftheN: 1.2,
    theNofN: 1,
    theNoftheN: 0.6,
    P: 7,
    PsN: 3,
    NandN: 4.5,
    GtheN: 0.8,
    GN: 2,
    VtheN: 0.5,
    DN: 3.5,
    DAN: 2.5,
    NinP: 2.5,
    PREPtheN: 1,
    PREPN: 1.5,
    salad: 4,
    subtitle: 4,
    PN: 3.5,
    theAAN: 0.3,
    numN: 1.2,
    theNum: 0.3,
  });

  private lastSeriesId: string | null = null;
  private nextId = 0;

  constructor(
    private readonly rngTitle: Rng,
    private readonly rngRating: Rng,
    private readonly rngEnrich: Rng,
    vocabRng: Rng,
  ) {
    const tail = buildTailNames(60_000, vocabRng);
    this.names = zipf([...PROPER_NAMES, ...tail], 1.02, 6);
    this.people = zipf(
      Array.from({ length: 80_000 }, (_, i) => i),
      0.9,
      20,
    );
  }

  // --- titles -------------------------------------------------------------------------------

  private titleWords(depth = 0): string[] {
    const r = this.rngTitle;
    const N = () => this.nouns.sample(r);
    const A = () => this.adjectives.sample(r);
    switch (this.templates.sample(r)) {
      case 'N':
        return [N()];
      case 'AN':
        return [A(), N()];
      case 'theN':
        return ['the', N()];
      case 'theAN':
        return ['the', A(), N()];
      case 'NofN':
        return [N(), 'of', N()];
      case 'NoftheN':
        return [N(), 'of', 'the', N()];
      case 'theNofN':
        return ['the', N(), 'of', N()];
      case 'theNoftheN':
        return ['the', N(), 'of', 'the', N()];
      case 'P':
        return [this.names.sample(r)];
      case 'PsN':
        return [`${this.names.sample(r)}'s`, N()];
      case 'NandN':
        return [N(), 'and', N()];
      case 'GtheN':
        return [this.gerunds.sample(r), 'the', N()];
      case 'GN':
        return [this.gerunds.sample(r), this.names.sample(r)];
      case 'VtheN':
        return [this.verbs.sample(r), 'the', N()];
      case 'DN':
        return [this.determiners.sample(r), N()];
      case 'DAN':
        return [this.determiners.sample(r), A(), N()];
      case 'NinP':
        return [N(), 'in', this.names.sample(r)];
      case 'PREPtheN':
        return [this.prepositions.sample(r), 'the', N()];
      case 'PREPN':
        return [this.prepositions.sample(r), N()];
      case 'PN':
        return [this.names.sample(r), N()];
      case 'theAAN':
        return ['the', A(), A(), N()];
      case 'numN':
        return [this.numbers.sample(r), N()];
      case 'theNum':
        return ['the', this.numbers.sample(r)];
      case 'subtitle': {
        if (depth > 0) return [N()];
        const head = this.titleWords(1);
        const tail = this.titleWords(1);
        if (head.length + tail.length > 8) return head;
        head[head.length - 1] += ':';
        return [...head, ...tail];
      }
      case 'salad': {
        const n = int(r, 3, 7);
        const out: string[] = [];
        for (let i = 0; i < n; i++) {
          const x = r();
          const w =
            x < 0.36
              ? this.functionWords.sample(r)
              : x < 0.7
                ? N()
                : x < 0.85
                  ? A()
                  : x < 0.95
                    ? this.verbs.sample(r)
                    : this.names.sample(r);
          if (out.length === 0 || out[out.length - 1] !== w) out.push(w);
        }
        return out;
      }
    }
  }

  private static titleCase(tokens: readonly string[]): string {
    let out = '';
    let capitalizeNext = true;
    for (let i = 0; i < tokens.length; i++) {
      const w = tokens[i];
      const small = !capitalizeNext && SMALL_WORDS.has(w);
      out += (i === 0 ? '' : ' ') + (small ? w : w.charAt(0).toUpperCase() + w.slice(1));
      capitalizeNext = w.endsWith(':');
    }
    return out;
  }

  /** A "foreign" original title: Latin-script languages translate word by word, others start afresh. */
  private foreignTitle(tokens: readonly string[], language: Language, languageIndex: number): string {
    const r = this.rngTitle;
    const fresh = (): string => {
      const pool = this.languageWords[languageIndex];
      const n = int(r, 1, 3);
      const parts: string[] = [];
      for (let i = 0; i < n; i++) parts.push(pick(r, pool));
      const text = parts.join(language.joiner);
      return text.charAt(0).toUpperCase() + text.slice(1);
    };
    if (language.fresh) return fresh();
    const articles = language.dict.the === undefined;
    const translated = tokens
      .filter((token) => !(articles && (token === 'the' || token === 'a')))
      .map((token) => {
        const colon = token.endsWith(':');
        const bare = colon ? token.slice(0, -1) : token;
        const word =
          language.dict[bare] ??
          (SMALL_WORDS.has(bare) ? bare : bare.charAt(0).toUpperCase() + bare.slice(1));
        return colon ? `${word}:` : word;
      })
      .filter((w) => w !== '');
    // Nothing translated (names, rare words): a new title in that language instead of a case-only change.
    if (translated.join(' ').toLowerCase() === tokens.join(' ').toLowerCase()) return fresh();
    // Original titles are in sentence case, as IMDb's non-English original titles mostly are.
    const text = translated.join(' ');
    return text.charAt(0).toUpperCase() + text.slice(1);
  }

  private episodeTitle(): string {
    const r = this.rngTitle;
    const x = r();
    if (x < 0.45) return `Episode #${int(r, 1, 12)}.${int(r, 1, 24)}`;
    if (x < 0.55) return `Episode dated ${int(r, 1, 28)} ${pick(r, MONTHS)} ${int(r, 1990, 2025)}`;
    return CatalogGenerator.titleCase(this.titleWords());
  }

  // --- rows ---------------------------------------------------------------------------------

  nextRow(): TitleRow {
    const r = this.rngTitle;
    this.nextId += int(r, 1, 15);
    const id = `tt${String(this.nextId).padStart(7, '0')}`;
    const type = TYPE_MIX.sample(r);

    let title: string;
    let original: string;
    let language: Language | null = null;
    if (type === 'tvEpisode' && r() < 0.6) {
      title = this.episodeTitle();
      original = title;
    } else {
      let tokens = this.titleWords();
      if ((type === 'movie' || type === 'video') && r() < 0.03) {
        tokens = [
          ...tokens,
          ...pick(r, [['2'], ['3'], ['II'], ['III'], ['4'], ['Part', 'II'], ['2:', 'the', 'return']]),
        ];
      }
      if (tokens.length > 8) tokens = tokens.slice(0, 8);
      if (tokens[tokens.length - 1].endsWith(':'))
        tokens[tokens.length - 1] = tokens[tokens.length - 1].slice(0, -1);
      title = CatalogGenerator.titleCase(tokens);
      original = title;
      if (r() < 0.15) {
        const index = this.languages.index(r);
        language = LANGUAGES[index];
        original = this.foreignTitle(tokens, language, index);
      }
    }

    const isAdult = r() < 0.01;
    const startYear = this.startYear(type);
    const endYear = this.endYear(type, startYear);
    const runtime = this.runtime(type);
    const genres = this.genres(type, isAdult);

    // Ratings use their own stream so changing title rules does not reshuffle votes.
    const rr = this.rngRating;
    let rating: number | null = null;
    let votes = 0;
    if (rr() < 0.85) {
      votes = CatalogGenerator.votes(rr, type);
      const spread = 0.8 + 1.2 / (1 + Math.log10(votes / 5));
      rating = Math.round(clamp(normal(rr, 6.3, spread), 1, 10) * 10) / 10;
    }

    if (type === 'tvSeries' || type === 'tvMiniSeries') this.lastSeriesId = id;
    return {
      id,
      type,
      title,
      original,
      language,
      isAdult,
      startYear,
      endYear,
      runtime,
      genres,
      rating,
      votes,
    };
  }

  private startYear(type: ImdbType): number | null {
    const r = this.rngTitle;
    if (r() < 0.015) return null;
    const min =
      type === 'videoGame'
        ? 1975
        : type === 'tvSeries' ||
            type === 'tvMiniSeries' ||
            type === 'tvEpisode' ||
            type === 'tvSpecial' ||
            type === 'tvMovie' ||
            type === 'tvShort' ||
            type === 'tvPilot'
          ? 1946
          : type === 'video'
            ? 1970
            : 1890;
    for (;;) {
      const year = 2026 - Math.floor(-Math.log(1 - r()) * 21);
      if (year >= min) return year;
    }
  }

  private endYear(type: ImdbType, startYear: number | null): number | null {
    const r = this.rngTitle;
    if (startYear === null) return null;
    if (type === 'tvSeries') {
      if (r() < 0.4) return null;
      const end = startYear + Math.floor(-Math.log(1 - r()) * 3.5);
      return end > 2026 ? null : end;
    }
    if (type === 'tvMiniSeries') {
      if (r() < 0.08) return null;
      return Math.min(2026, startYear + (r() < 0.8 ? 0 : 1));
    }
    return null;
  }

  private runtime(type: ImdbType): number | null {
    const r = this.rngTitle;
    const sometimes = (nullShare: number, value: () => number) =>
      r() < nullShare ? null : Math.round(value());
    switch (type) {
      case 'movie':
        return sometimes(0.08, () => clamp(normal(r, 101, 21), 40, 240));
      case 'tvMovie':
        return sometimes(0.05, () => clamp(normal(r, 88, 14), 45, 180));
      case 'tvSeries':
        return sometimes(0.2, () => pick(r, [22, 24, 25, 30, 30, 42, 43, 44, 45, 50, 55, 60]));
      case 'tvMiniSeries':
        return sometimes(0.15, () => (r() < 0.8 ? pick(r, [45, 50, 55, 60]) : int(r, 180, 600)));
      case 'tvSpecial':
        return sometimes(0.05, () => clamp(normal(r, 70, 28), 20, 180));
      case 'tvEpisode':
        return sometimes(0.3, () => pick(r, [11, 22, 24, 30, 42, 44, 45, 50, 60]));
      case 'short':
        return sometimes(0.05, () => int(r, 1, 40));
      case 'tvShort':
        return sometimes(0.1, () => int(r, 1, 30));
      case 'video':
        return sometimes(0.2, () => clamp(normal(r, 80, 30), 5, 200));
      case 'videoGame':
        return sometimes(0.95, () => int(r, 5, 60));
      case 'tvPilot':
        return sometimes(0.2, () => int(r, 25, 90));
    }
  }

  private genres(type: ImdbType, isAdult: boolean): string[] | null {
    const r = this.rngTitle;
    if (r() < 0.03) return null;
    const n = r() < 0.35 ? 1 : r() < 0.55 ? 2 : 3;
    const set = new Set<string>();
    if (type === 'short' || type === 'tvShort') set.add('Short');
    if (isAdult) set.add('Adult');
    while (set.size < n) set.add(this.genreSampler.sample(r));
    return [...set].sort();
  }

  /** Long-tailed votes: Pareto from 5, steeper past 100k, capped near the real maximum. */
  private static votes(r: Rng, type: ImdbType): number {
    for (;;) {
      let v = 5 / Math.pow(1 - r(), 1 / 0.62);
      if (v > 100_000) v = 100_000 * Math.pow(v / 100_000, 0.5);
      if (type === 'tvEpisode' || type === 'short' || type === 'tvShort') v = 5 + (v - 5) * 0.3;
      if (v <= 3_300_000) return Math.floor(v);
    }
  }

  // --- output lines -------------------------------------------------------------------------

  static basicsLine(t: TitleRow): string {
    return [
      t.id,
      t.type,
      t.title,
      t.original,
      t.isAdult ? '1' : '0',
      t.startYear === null ? NULL : String(t.startYear),
      t.endYear === null ? NULL : String(t.endYear),
      t.runtime === null ? NULL : String(t.runtime),
      t.genres === null ? NULL : t.genres.join(','),
    ].join('\t');
  }

  static ratingsLine(t: TitleRow): string | null {
    return t.rating === null ? null : `${t.id}\t${t.rating.toFixed(1)}\t${t.votes}`;
  }

  /** Decides on (and builds) the enrichment record of a row; consumes only the enrichment stream. */
  enrichmentLine(t: TitleRow, ratio: number, episodeRatio: number): string | null {
    const e = this.rngEnrich;
    const kept = KEPT_TYPES.has(t.type);
    if (kept ? !(e() < ratio) : t.type !== 'tvEpisode' || !(e() < episodeRatio)) return null;
    return JSON.stringify(this.omdb(t));
  }

  private person(): string {
    const k = this.people.sample(this.rngEnrich);
    const first = FIRST_NAMES[k % FIRST_NAMES.length];
    const last = LAST_NAMES[Math.floor(k / FIRST_NAMES.length) % LAST_NAMES.length];
    return `${first} ${last}`;
  }

  private personList(min: number, max: number, suffixes?: readonly string[]): string {
    const e = this.rngEnrich;
    const n = int(e, min, max);
    const out: string[] = [];
    for (let i = 0; i < n; i++) out.push(this.person() + (suffixes ? pick(e, suffixes) : ''));
    return out.join(', ');
  }

  private plot(t: TitleRow): string {
    const e = this.rngEnrich;
    if (t.type === 'tvSeries' || t.type === 'tvMiniSeries') {
      return `Follows ${pick(e, SERIES_SUBJECTS)} ${pick(e, PLOT_SETTINGS)}.${e() < 0.5 ? ` ${pick(e, PLOT_CODAS)}` : ''}`;
    }
    const subject = pick(e, PLOT_SUBJECTS);
    const verb = pick(e, PLOT_VERBS)[PLURAL_SUBJECT.test(subject) ? 1 : 0];
    return `${subject} ${verb} ${pick(e, PLOT_OBJECTS)} ${pick(e, PLOT_SETTINGS)}.${
      e() < 0.6 ? ` ${pick(e, PLOT_CODAS)}` : ''
    }`;
  }

  private listOf(sampler: CdfSampler<string>, first: string | null, max: number): string {
    const e = this.rngEnrich;
    const set = new Set<string>();
    if (first) set.add(first);
    const n = int(e, 1, max);
    while (set.size < n) set.add(sampler.sample(e));
    return [...set].join(', ');
  }

  private awards(): string {
    const e = this.rngEnrich;
    const x = e();
    if (x < 0.55) return 'N/A';
    const wins = Math.floor(-Math.log(1 - e()) * 4);
    const noms = wins + Math.floor(-Math.log(1 - e()) * 8) + 1;
    if (x < 0.58) {
      const oscars = int(e, 1, 4);
      return `Won ${oscars} Oscar${oscars === 1 ? '' : 's'}. ${wins + 5} wins & ${noms + 10} nominations total`;
    }
    if (x < 0.62) return `Nominated for ${int(e, 1, 6)} Oscars. ${wins} wins & ${noms} nominations total`;
    if (x < 0.64) return `Won 1 Primetime Emmy. ${wins + 1} wins & ${noms + 2} nominations total`;
    return wins === 0
      ? `${noms} nomination${noms === 1 ? '' : 's'}`
      : `${wins} win${wins === 1 ? '' : 's'} & ${noms} nominations`;
  }

  private omdb(t: TitleRow): Record<string, unknown> {
    const e = this.rngEnrich;
    const na = (share: number, value: () => string) => (e() < share ? 'N/A' : value());
    const isSeries = t.type === 'tvSeries' || t.type === 'tvMiniSeries';
    const isEpisode = t.type === 'tvEpisode';
    const omdbType = isSeries ? 'series' : isEpisode ? 'episode' : 'movie';

    let year = 'N/A';
    if (t.startYear !== null) {
      year = String(t.startYear);
      if (isSeries) {
        if (t.endYear === null) year += '–';
        else if (t.endYear !== t.startYear) year += `–${t.endYear}`;
      }
    }
    const released =
      t.startYear === null
        ? 'N/A'
        : na(0.15, () => `${String(int(e, 1, 28)).padStart(2, '0')} ${pick(e, MONTHS)} ${t.startYear}`);
    const runtime =
      t.runtime !== null ? na(0.08, () => `${t.runtime} min`) : na(0.5, () => `${int(e, 20, 130)} min`);
    const genre =
      t.genres !== null
        ? na(0.03, () => (t.genres as string[]).join(', '))
        : na(0.5, () => this.genreSampler.sample(e));
    const language = t.language;
    const languages = na(0.05, () => this.listOf(this.languageNames, language?.name ?? null, 3));
    const countries = na(0.04, () => this.listOf(this.countryNames, language?.country ?? null, 3));
    const imdbRating = t.rating === null ? 'N/A' : t.rating.toFixed(1);
    const imdbVotes = t.rating === null ? 'N/A' : t.votes.toLocaleString('en-US');
    const metascore = t.votes > 2_000 && e() < 0.6 ? String(int(e, 20, 98)) : 'N/A';
    const ratings: { Source: string; Value: string }[] = [];
    if (t.rating !== null) ratings.push({ Source: 'Internet Movie Database', Value: `${imdbRating}/10` });
    if (t.votes > 5_000 && e() < 0.5)
      ratings.push({ Source: 'Rotten Tomatoes', Value: `${int(e, 5, 100)}%` });
    if (metascore !== 'N/A') ratings.push({ Source: 'Metacritic', Value: `${metascore}/100` });
    let poster = 'N/A';
    if (e() < 0.8) {
      let key = '';
      for (let i = 0; i < 32; i++) key += POSTER_CHARS[Math.floor(e() * POSTER_CHARS.length)];
      poster = `https://m.media-amazon.com/images/M/MV5B${key}._V1_SX300.jpg`;
    }

    const o: Record<string, unknown> = {
      Title: t.title,
      Year: year,
      Rated: na(0.3, () => pick(e, isSeries || isEpisode ? CONTENT_RATINGS_TV : CONTENT_RATINGS_MOVIE)),
      Released: released,
    };
    if (isEpisode) {
      o.Season = na(0.2, () => String(int(e, 1, 12)));
      o.Episode = na(0.2, () => String(int(e, 1, 24)));
    }
    o.Runtime = runtime;
    o.Genre = genre;
    o.Director = isSeries ? na(0.7, () => this.personList(1, 2)) : na(0.06, () => this.personList(1, 2));
    o.Writer = na(0.12, () => this.personList(1, 3, WRITER_ROLES));
    o.Actors = na(0.05, () => this.personList(1, 3));
    o.Plot = na(0.12, () => this.plot(t));
    o.Language = languages;
    o.Country = countries;
    o.Awards = this.awards();
    o.Poster = poster;
    o.Ratings = ratings;
    o.Metascore = metascore;
    o.imdbRating = imdbRating;
    o.imdbVotes = imdbVotes;
    o.imdbID = t.id;
    if (isEpisode) o.seriesID = this.lastSeriesId ?? 'N/A';
    o.Type = omdbType;
    if (isSeries) {
      const seasons =
        t.type === 'tvMiniSeries'
          ? 1
          : Math.max(1, (t.endYear ?? 2026) - (t.startYear ?? 2026) + (e() < 0.5 ? 1 : 0));
      o.totalSeasons = na(0.05, () => String(seasons));
    } else if (!isEpisode) {
      o.DVD = na(
        0.7,
        () =>
          `${String(int(e, 1, 28)).padStart(2, '0')} ${pick(e, MONTHS)} ${Math.min(2026, (t.startYear ?? 2000) + 1)}`,
      );
      o.BoxOffice =
        t.type === 'movie' && t.votes > 1_000
          ? na(0.4, () => `$${Math.floor(Math.exp(normal(e, 16, 2))).toLocaleString('en-US')}`)
          : 'N/A';
      o.Production = 'N/A';
      o.Website = 'N/A';
    }
    o.Response = 'True';
    return o;
  }
}

// ---------------------------------------------------------------------------------------------
// Output with backpressure
// ---------------------------------------------------------------------------------------------

const CHUNK_CHARS = 256 * 1024;

class OutputFile {
  rows = 0;
  private buffer: string[] = [];
  private bufferedChars = 0;
  private readonly sink: Writable;
  private readonly done: Promise<void>;

  constructor(
    readonly path: string,
    gzip: boolean,
  ) {
    const file = createWriteStream(path);
    if (gzip) {
      const gz = createGzip({ level: 6 });
      this.sink = gz;
      this.done = pipeline(gz, file);
    } else {
      this.sink = file;
      this.done = finished(file);
    }
    // Surface errors through `done` / `once(..., 'drain')` instead of as unhandled events.
    this.done.catch(() => undefined);
  }

  /** Buffers one line (the trailing newline is added here); returns true when a flush is due. */
  push(line: string): boolean {
    this.buffer.push(line);
    this.bufferedChars += line.length + 1;
    this.rows++;
    return this.bufferedChars >= CHUNK_CHARS;
  }

  async flush(): Promise<void> {
    if (this.buffer.length === 0) return;
    const chunk = this.buffer.join('\n') + '\n';
    this.buffer = [];
    this.bufferedChars = 0;
    if (!this.sink.write(chunk)) await Promise.race([once(this.sink, 'drain'), this.done]);
  }

  async close(): Promise<void> {
    await this.flush();
    this.sink.end();
    await this.done;
  }
}

// ---------------------------------------------------------------------------------------------
// CLI
// ---------------------------------------------------------------------------------------------

function parseOptions(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    options: {
      titles: { type: 'string' },
      out: { type: 'string' },
      seed: { type: 'string', default: '42' },
      'enrichment-ratio': { type: 'string', default: '1.0' },
      'episode-enrichment-ratio': { type: 'string', default: '0.01' },
      gzip: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
    allowPositionals: false,
  });
  const usage =
    'usage: generate-catalog.ts --titles N --out DIR [--seed 42] [--enrichment-ratio 1.0] ' +
    '[--episode-enrichment-ratio 0.01] [--gzip]';
  if (values.help) {
    console.log(usage);
    process.exit(0);
  }
  const titles = Number(values.titles);
  if (!values.titles || !Number.isInteger(titles) || titles < 0)
    throw new Error(`--titles must be a non-negative integer\n${usage}`);
  if (!values.out) throw new Error(`--out is required\n${usage}`);
  const seed = Number(values.seed);
  if (!Number.isInteger(seed)) throw new Error('--seed must be an integer');
  const ratio = (name: string, raw: string): number => {
    const x = Number(raw);
    if (!(x >= 0 && x <= 1)) throw new Error(`--${name} must be between 0 and 1`);
    return x;
  };
  return {
    titles,
    out: values.out,
    seed,
    enrichmentRatio: ratio('enrichment-ratio', values['enrichment-ratio']),
    episodeEnrichmentRatio: ratio('episode-enrichment-ratio', values['episode-enrichment-ratio']),
    gzip: values.gzip,
  };
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const started = process.hrtime.bigint();
  mkdirSync(options.out, { recursive: true });
  const ext = options.gzip ? '.gz' : '';
  const basics = new OutputFile(join(options.out, `title.basics.tsv${ext}`), options.gzip);
  const ratings = new OutputFile(join(options.out, `title.ratings.tsv${ext}`), options.gzip);
  const enrichment = new OutputFile(join(options.out, `enrichment.ndjson${ext}`), options.gzip);
  const files = [basics, ratings, enrichment];

  const generator = new CatalogGenerator(
    mulberry32(deriveSeed(options.seed, 1)),
    mulberry32(deriveSeed(options.seed, 2)),
    mulberry32(deriveSeed(options.seed, 3)),
    mulberry32(deriveSeed(options.seed, 4)),
  );

  basics.push(
    'tconst\ttitleType\tprimaryTitle\toriginalTitle\tisAdult\tstartYear\tendYear\truntimeMinutes\tgenres',
  );
  ratings.push('tconst\taverageRating\tnumVotes');
  let kept = 0;
  for (let i = 0; i < options.titles; i++) {
    const row = generator.nextRow();
    if (KEPT_TYPES.has(row.type)) kept++;
    let due = basics.push(CatalogGenerator.basicsLine(row));
    const ratingLine = CatalogGenerator.ratingsLine(row);
    if (ratingLine !== null) due = ratings.push(ratingLine) || due;
    const enrichmentLine = generator.enrichmentLine(
      row,
      options.enrichmentRatio,
      options.episodeEnrichmentRatio,
    );
    if (enrichmentLine !== null) due = enrichment.push(enrichmentLine) || due;
    if (due) for (const f of files) await f.flush();
  }
  await Promise.all(files.map((f) => f.close()));

  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const maxRssMb = Math.round(process.resourceUsage().maxRSS / 1024);
  console.log(
    `generated ${options.out}: title.basics ${basics.rows - 1} rows (${kept} kept, ${basics.rows - 1 - kept} excluded), ` +
      `title.ratings ${ratings.rows - 1} rows, enrichment ${enrichment.rows} rows in ${seconds.toFixed(1)}s ` +
      `(seed ${options.seed}, max RSS ${maxRssMb} MB)`,
  );
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
