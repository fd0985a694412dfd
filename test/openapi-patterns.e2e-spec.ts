import { RE2 } from 're2-wasm';
import { type TestApp, createTestApp } from './support/test-app';

type Json = Record<string, unknown>;

/**
 * Validators compile a schema's `pattern` in their own dialect: V8 with and without the `u` flag
 * (Spectral, browsers), RE2 (Go, and Rust's `regex`, which shares its syntax), Python's `re`. A
 * pattern some of them refuse, or read differently, makes the document say different things to
 * different tools. Every pattern of the served document must compile in each engine here and give
 * the same verdict on every example of the document and on a few hard strings.
 */
const ENGINES: Record<string, (pattern: string) => { test(text: string): boolean }> = {
  'ECMAScript, u flag': (pattern) => new RegExp(pattern, 'u'),
  'ECMAScript, no flag': (pattern) => new RegExp(pattern),
  // Google's RE2 compiled to WebAssembly (its JavaScript binding always reads patterns as Unicode).
  RE2: (pattern) => new RE2(pattern, 'u'),
};

/**
 * What reads differently across those dialects (and Python's and Rust's): lookaround and
 * backreferences (RE2 and Rust have none), Unicode property and code-unit escapes (`\p` is "p"
 * without the `u` flag and an error in Python; `\uD83C` is a lone surrogate in Python and RE2), and
 * shorthand classes (`\d`, `\w`, `\s`, `\b` are ASCII in ECMAScript and RE2, Unicode in Python and Rust).
 */
const NON_PORTABLE = /\(\?[=!<]|\\[pPuxkcdDwWsSbB0-9]|[^\x20-\x7e]/;

/** Strings where dialects part ways: non-ASCII, astral, line breaks, lone surrogates, lengths. */
const HARD_STRINGS = [
  '',
  ' ',
  'a',
  'A',
  '0',
  '_',
  '-',
  '.',
  'p',
  'p{L}',
  'é',
  'Amélie',
  '™',
  '&',
  '٣',
  '😀',
  '\ud83c',
  'a\n',
  '\na',
  'tt0111161\n',
  'tt',
  'tt0111161',
  'TT0111161',
  'tt١٢٣',
  '"WLZWsng2KpFlkWGBo4e0SGe8p47"',
  'a'.repeat(128),
  'a'.repeat(129),
  '"minute";q=120;w=60, "month";q=100000;w=2592000',
  '"minute";r=0;t=1, "month";r=0;t=1',
];

interface PatternSite {
  /** JSON pointer of the schema that holds the pattern. */
  at: string;
  pattern: string;
  /** Examples given for exactly this schema (its own, or its parameter's or header's). */
  own: unknown[];
}

/** Every `pattern` of the document, with the examples that belong to its schema. */
function patternSites(document: unknown): PatternSite[] {
  const sites: PatternSite[] = [];
  const visit = (node: unknown, at: string, holderExamples: unknown[]) => {
    if (Array.isArray(node)) return node.forEach((item, i) => visit(item, `${at}/${i}`, []));
    if (typeof node !== 'object' || node === null) return;
    const object = node as Json;
    if (typeof object.pattern === 'string') {
      sites.push({ at, pattern: object.pattern, own: [...holderExamples, ...examplesOf(object)] });
    }
    for (const [key, value] of Object.entries(object)) {
      if (key === 'example' || key === 'examples') continue;
      // A parameter's or header's example is its schema's.
      visit(
        value,
        `${at}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`,
        key === 'schema' ? examplesOf(object) : [],
      );
    }
  };
  visit(document, '#', []);
  return sites;
}

function examplesOf(object: Json): unknown[] {
  const { example, examples } = object;
  const listed = Array.isArray(examples)
    ? examples
    : typeof examples === 'object' && examples !== null
      ? Object.values(examples as Record<string, { value?: unknown }>).map((item) => item.value)
      : [];
  return [...(example === undefined ? [] : [example]), ...listed];
}

/** Every string under an `example` or `examples` anywhere in the document, headers and bodies alike. */
function exampleStrings(document: unknown): string[] {
  const strings = new Set<string>();
  const collect = (node: unknown) => {
    if (typeof node === 'string') strings.add(node);
    else if (typeof node === 'number') strings.add(String(node));
    else if (Array.isArray(node)) node.forEach(collect);
    else if (typeof node === 'object' && node !== null) Object.values(node).forEach(collect);
  };
  const find = (node: unknown) => {
    if (Array.isArray(node)) return node.forEach(find);
    if (typeof node !== 'object' || node === null) return;
    for (const [key, value] of Object.entries(node)) {
      if (key === 'example' || key === 'examples') collect(value);
      else find(value);
    }
  };
  find(document);
  return [...strings];
}

describe('the patterns of the served OpenAPI document', () => {
  let t: TestApp;
  let sites: PatternSite[];
  let texts: string[];

  beforeAll(async () => {
    t = await createTestApp();
    const document = (await t.http().get('/openapi.json').expect(200)).body;
    sites = patternSites(document);
    texts = [...exampleStrings(document), ...HARD_STRINGS];
  }, 120_000);
  afterAll(async () => {
    await t.close();
  });

  it('are found: the document has patterns and examples to check them on', () => {
    expect(new Set(sites.map((site) => site.pattern)).size).toBeGreaterThanOrEqual(4);
    expect(texts.length).toBeGreaterThan(HARD_STRINGS.length + 20);
  });

  it('use only syntax every mainstream dialect reads the same way', () => {
    const flagged = sites
      .filter((site) => NON_PORTABLE.test(site.pattern))
      .map(({ at, pattern }) => ({ at, pattern }));
    expect(flagged).toEqual([]);
  });

  it('compile in every engine', () => {
    const refused: { at: string; engine: string; error: string }[] = [];
    for (const site of sites) {
      for (const [engine, compile] of Object.entries(ENGINES)) {
        try {
          compile(site.pattern);
        } catch (error) {
          refused.push({ at: site.at, engine, error: String(error) });
        }
      }
    }
    expect(refused).toEqual([]);
  });

  it('get the same verdict from every engine on every example and hard string', () => {
    const disagreements: Json[] = [];
    for (const pattern of new Set(sites.map((site) => site.pattern))) {
      const compiled = Object.entries(ENGINES).map(
        ([engine, compile]) => [engine, compile(pattern)] as const,
      );
      for (const text of texts) {
        const verdicts = Object.fromEntries(compiled.map(([engine, regex]) => [engine, regex.test(text)]));
        if (new Set(Object.values(verdicts)).size > 1) disagreements.push({ pattern, text, verdicts });
      }
    }
    expect(disagreements).toEqual([]);
  });

  it("accept their own schema's examples in every engine", () => {
    const refused: Json[] = [];
    for (const site of sites) {
      for (const example of site.own) {
        for (const [engine, compile] of Object.entries(ENGINES)) {
          if (!compile(site.pattern).test(String(example))) refused.push({ at: site.at, example, engine });
        }
      }
    }
    expect(refused).toEqual([]);
    // Each distinct pattern has at least one example of its own that the engines accept.
    const withExample = new Set(sites.filter((site) => site.own.length > 0).map((site) => site.pattern));
    expect(
      [...new Set(sites.map((site) => site.pattern))].filter((pattern) => !withExample.has(pattern)),
    ).toEqual([]);
  });
});
