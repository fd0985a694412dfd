/**
 * Known-item search quality on real IMDb titles (an extract of the 30,000 most-voted), against a
 * running server that has ingested them (basics + ratings). Reads the same TSV files to build the
 * queries and the expected answers:
 *
 *   npx ts-node --transpile-only bench/search-quality.ts --url http://127.0.0.1:4102 --key mov_live_… \
 *     --basics <dir>/title.basics.tsv.gz --ratings <dir>/title.ratings.tsv.gz
 *
 * Query sets (each title of a kept type contributes where it qualifies):
 * - exact: the primary title as typed; success@1.
 * - original: the original title, where its tokens differ from the primary title's; success@1.
 * - folded: titles with non-ASCII letters, typed lowercase without accents; success@1.
 * - article-less: titles starting with a leading article (and more words), typed without it; top 3.
 * - pre-colon: for titles with 50k+ votes and a colon, the part before it ("Star Wars"); the expected
 *   answer is the most-voted title holding all its words; top 3. Each distinct query counts once.
 * "success" also counts a query as found when every result shown has the target's own token key,
 * with or without its article (typing "Dune" cannot tell the 1984 film from the 2000 series, nor
 * "Star Is Born" one "A Star Is Born" from another); "strict" counts only the target itself.
 * `--show-failures N` prints the first N misses of each set, and the first N found only that way.
 * Titles longer than the contract's 100 characters (docs/contract.md) cannot be typed whole and are left out.
 * Loopback targets only.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { createGunzip } from 'node:zlib';
import { LEADING_ARTICLES, searchTokens } from '../src/catalog/search/search-text';

const { values } = parseArgs({
  options: {
    url: { type: 'string', default: 'http://127.0.0.1:4102' },
    key: { type: 'string' },
    basics: { type: 'string' },
    ratings: { type: 'string' },
    concurrency: { type: 'string', default: '4' },
    'show-failures': { type: 'string', default: '5' },
  },
});
const base = new URL(values.url!);
if (!['127.0.0.1', 'localhost', '[::1]'].includes(base.hostname)) throw new Error('loopback targets only');

const KEPT_TYPES = new Set(['movie', 'tvMovie', 'tvSeries', 'tvMiniSeries', 'tvSpecial']);

interface Known {
  imdbId: string;
  title: string;
  original: string;
  votes: number;
  titleKey: string;
  originalKey: string;
  lexemes: Set<string>;
}

async function* lines(path: string): AsyncGenerator<string[]> {
  const input = createReadStream(path);
  const stream = path.endsWith('.gz') ? input.pipe(createGunzip()) : input;
  let header = true;
  for await (const line of createInterface({ input: stream, crlfDelay: Infinity })) {
    if (header) {
      header = false;
      continue;
    }
    yield line.split('\t');
  }
}

async function load(): Promise<Known[]> {
  const votes = new Map<string, number>();
  for await (const [id, , numVotes] of lines(values.ratings!)) votes.set(id, Number(numVotes));
  const titles: Known[] = [];
  for await (const [id, type, primary, original] of lines(values.basics!)) {
    if (!KEPT_TYPES.has(type)) continue;
    const originalTitle = original === '\\N' ? primary : original;
    const titleTokens = searchTokens(primary);
    const originalTokens = searchTokens(originalTitle);
    titles.push({
      imdbId: id,
      title: primary,
      original: originalTitle,
      votes: votes.get(id) ?? 0,
      titleKey: titleTokens.join(' '),
      originalKey: originalTokens.join(' '),
      lexemes: new Set([...titleTokens, ...originalTokens]),
    });
  }
  return titles;
}

interface Case {
  q: string;
  target: Known;
  /** Success if the target is within the first `within` results. */
  within: number;
}

async function top(q: string, limit: number): Promise<string[]> {
  const params = new URLSearchParams({ q, limit: String(limit) });
  const res = await fetch(new URL(`/v1/search?${params}`, base), {
    headers: { Authorization: `Bearer ${values.key}` },
  });
  if (res.status !== 200) throw new Error(`${q} answered ${res.status}`);
  const body = (await res.json()) as { data: Array<{ imdb_id: string }> };
  return body.data.map((item) => item.imdb_id);
}

async function evaluate(
  name: string,
  cases: Case[],
  byId: Map<string, Known>,
): Promise<Record<string, string | number>> {
  let success = 0;
  let strict = 0;
  const failures: string[] = [];
  /** Found only by the "same key" rule: the target itself was not shown. */
  const strictMisses: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < cases.length) {
      const c = cases[next++];
      const ids = await top(c.q, c.within);
      const hit = ids.includes(c.target.imdbId);
      // Indistinguishable: every result shown has the target's own title key (or bare key).
      const keys = (t: Known | undefined) =>
        t ? [t.titleKey, t.originalKey, bare(t.titleKey), bare(t.originalKey)] : [];
      const targetKeys = new Set(keys(c.target));
      const tie =
        ids.length === c.within && ids.every((id) => keys(byId.get(id)).some((key) => targetKeys.has(key)));
      const shown = () =>
        `${c.q} → wanted ${c.target.title} (${c.target.votes}), got ${ids
          .map((id) => `${byId.get(id)?.title} (${byId.get(id)?.votes})`)
          .join(' | ')}`;
      if (hit) strict += 1;
      if (hit || tie) success += 1;
      else if (failures.length < Number(values['show-failures'])) failures.push(shown());
      if (!hit && tie && strictMisses.length < Number(values['show-failures'])) strictMisses.push(shown());
    }
  };
  await Promise.all(Array.from({ length: Number(values.concurrency) }, worker));
  const pct = (n: number) => Math.round((n / Math.max(cases.length, 1)) * 10_000) / 100;
  return {
    set: name,
    queries: cases.length,
    success: pct(success),
    strict: pct(strict),
    failures: failures.join(' ;; '),
    strictMisses: strictMisses.join(' ;; '),
  };
}

function bare(key: string): string {
  const tokens = key.split(' ');
  return tokens.length > 1 && LEADING_ARTICLES.includes(tokens[0]) ? tokens.slice(1).join(' ') : key;
}

/** The contract (docs/contract.md) caps q at 100 characters: longer titles cannot be typed whole. */
const typeable = (q: string) => [...q].length <= 100;

async function main(): Promise<void> {
  const titles = await load();
  const byId = new Map(titles.map((t) => [t.imdbId, t]));
  const articles = new Set(LEADING_ARTICLES);
  const sets: Record<string, Case[]> = {
    exact: [],
    original: [],
    folded: [],
    'article-less': [],
    'pre-colon': [],
  };
  const preColon = new Map<string, Known>();
  for (const t of titles) {
    if (t.titleKey && typeable(t.title)) sets.exact.push({ q: t.title, target: t, within: 1 });
    if (t.originalKey && t.originalKey !== t.titleKey && typeable(t.original))
      sets.original.push({ q: t.original, target: t, within: 1 });
    if ([...t.title].some((c) => c.codePointAt(0)! > 0x7f) && typeable(t.title)) {
      const folded = t.title.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
      sets.folded.push({ q: folded, target: t, within: 1 });
    }
    const words = t.title.split(/\s+/);
    const tokens = searchTokens(t.title);
    if (
      tokens.length > 1 &&
      articles.has(tokens[0]) &&
      searchTokens(words[0]).length === 1 &&
      words.length > 1 &&
      typeable(t.title)
    ) {
      sets['article-less'].push({ q: words.slice(1).join(' '), target: t, within: 3 });
    }
    const colon = t.title.indexOf(':');
    if (t.votes >= 50_000 && colon > 0) {
      const q = t.title.slice(0, colon).trim();
      if (searchTokens(q).length > 0) preColon.set(searchTokens(q).join(' '), t);
    }
  }
  for (const [key, example] of preColon) {
    const words = key.split(' ');
    const holders = titles.filter((t) => words.every((w) => t.lexemes.has(w)));
    const target = holders.reduce((best, t) => (t.votes > best.votes ? t : best), holders[0] ?? example);
    sets['pre-colon'].push({
      q: example.title.slice(0, example.title.indexOf(':')).trim(),
      target,
      within: 3,
    });
  }
  for (const [name, cases] of Object.entries(sets))
    console.log(JSON.stringify(await evaluate(name, cases, byId)));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
