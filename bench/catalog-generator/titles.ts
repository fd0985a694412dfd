/** Title composition: English titles from weighted templates, their foreign originals, episode titles. */
import { CdfSampler, int, pick, type Rng, weighted, zipf } from './random';
import type { ImdbType } from './title-row';
import {
  ADJECTIVES,
  DETERMINERS,
  FUNCTION_WORDS,
  GERUNDS,
  LANGUAGES,
  type Language,
  MONTHS,
  NOUNS,
  NUMBERS,
  PREPOSITIONS,
  PROPER_NAMES,
  SMALL_WORDS,
  TAIL_SYLLABLES,
  VERBS,
} from './vocabulary';

export interface ComposedTitle {
  title: string;
  original: string;
  /** The language of a foreign original title; null when the original is the English title. */
  language: Language | null;
}

/** Invented rare proper names, appended after the hand-written ones (same stream, same names per seed). */
function buildTailNames(count: number, rng: Rng): string[] {
  const { onsets, vowels, codas } = TAIL_SYLLABLES;
  const seen = new Set<string>(PROPER_NAMES);
  const out: string[] = [];
  while (out.length < count) {
    const syllables = int(rng, 2, 3);
    let name = '';
    for (let i = 0; i < syllables; i++) name += pick(rng, onsets) + pick(rng, vowels);
    name += pick(rng, codas);
    if (rng() < 0.04) name = name.replace(/e/, 'é').replace(/o/, 'ö');
    if (!seen.has(name)) {
      seen.add(name);
      out.push(name);
    }
  }
  return out;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export class TitleComposer {
  private readonly nouns = zipf(NOUNS, 1.0, 9);
  private readonly adjectives = zipf(ADJECTIVES, 1.0, 4);
  private readonly gerunds = zipf(GERUNDS, 1.0, 2);
  private readonly verbs = zipf(VERBS, 1.0, 2);
  private readonly functionWords = zipf(FUNCTION_WORDS, 1.0, 1);
  private readonly prepositions = zipf(PREPOSITIONS, 1.0, 1);
  private readonly determiners = zipf(DETERMINERS, 1.0, 1);
  private readonly numbers = zipf(NUMBERS, 1.0, 1);
  private readonly names: CdfSampler<string>;
  private readonly languages = new CdfSampler(
    LANGUAGES,
    LANGUAGES.map((l) => l.weight),
  );
  private readonly languageWords = LANGUAGES.map((l) => Object.values(l.dict));
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

  /** `rng` is the title stream (shared with the rest of the basics row); `vocabRng` only builds the name tail. */
  constructor(
    private readonly rng: Rng,
    vocabRng: Rng,
  ) {
    const tail = buildTailNames(60_000, vocabRng);
    this.names = zipf([...PROPER_NAMES, ...tail], 1.02, 6);
  }

  /** The primary and original title of a row of this type. */
  compose(type: ImdbType): ComposedTitle {
    const r = this.rng;
    if (type === 'tvEpisode' && r() < 0.6) {
      const title = this.episodeTitle();
      return { title, original: title, language: null };
    }
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
    const title = TitleComposer.titleCase(tokens);
    if (r() < 0.15) {
      const index = this.languages.index(r);
      const language = LANGUAGES[index];
      return { title, original: this.foreignTitle(tokens, language, index), language };
    }
    return { title, original: title, language: null };
  }

  private titleWords(depth = 0): string[] {
    const r = this.rng;
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
      out += (i === 0 ? '' : ' ') + (small ? w : capitalize(w));
      capitalizeNext = w.endsWith(':');
    }
    return out;
  }

  /** A "foreign" original title: Latin-script languages translate word by word, others start afresh. */
  private foreignTitle(tokens: readonly string[], language: Language, languageIndex: number): string {
    const r = this.rng;
    const fresh = (): string => {
      const pool = this.languageWords[languageIndex];
      const n = int(r, 1, 3);
      const parts: string[] = [];
      for (let i = 0; i < n; i++) parts.push(pick(r, pool));
      return capitalize(parts.join(language.joiner));
    };
    if (language.fresh) return fresh();
    const articles = language.dict.the === undefined;
    const translated = tokens
      .filter((token) => !(articles && (token === 'the' || token === 'a')))
      .map((token) => {
        const colon = token.endsWith(':');
        const bare = colon ? token.slice(0, -1) : token;
        const word = language.dict[bare] ?? (SMALL_WORDS.has(bare) ? bare : capitalize(bare));
        return colon ? `${word}:` : word;
      })
      .filter((w) => w !== '');
    // Nothing translated (names, rare words): a new title in that language instead of a case-only change.
    if (translated.join(' ').toLowerCase() === tokens.join(' ').toLowerCase()) return fresh();
    // Original titles are in sentence case, as IMDb's non-English original titles mostly are.
    return capitalize(translated.join(' '));
  }

  private episodeTitle(): string {
    const r = this.rng;
    const x = r();
    if (x < 0.45) return `Episode #${int(r, 1, 12)}.${int(r, 1, 24)}`;
    if (x < 0.55) return `Episode dated ${int(r, 1, 28)} ${pick(r, MONTHS)} ${int(r, 1990, 2025)}`;
    return TitleComposer.titleCase(this.titleWords());
  }
}
