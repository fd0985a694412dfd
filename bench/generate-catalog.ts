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
 *
 * The word lists are data in bench/catalog-words/; the parts live in bench/catalog-generator/:
 * random.ts (PRNG, samplers), vocabulary.ts (loads the word lists), title-row.ts (types, mixes, the
 * row), titles.ts (title composition), rows.ts (basics/ratings values), omdb.ts (enrichment records),
 * imdb-tsv.ts (TSV lines), output-file.ts (chunked writes), options.ts (command line).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { BASICS_HEADER, basicsLine, RATINGS_HEADER, ratingsLine } from './catalog-generator/imdb-tsv';
import { OmdbComposer } from './catalog-generator/omdb';
import { parseOptions } from './catalog-generator/options';
import { OutputFile } from './catalog-generator/output-file';
import { deriveSeed, mulberry32 } from './catalog-generator/random';
import { RowGenerator } from './catalog-generator/rows';
import { KEPT_TYPES } from './catalog-generator/title-row';
import { TitleComposer } from './catalog-generator/titles';

/** The PRNG streams, numbered as they were when the files' bytes were first fixed; do not renumber. */
const STREAM = { title: 1, rating: 2, enrichment: 3, vocabulary: 4 } as const;

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const started = process.hrtime.bigint();
  mkdirSync(options.out, { recursive: true });
  const ext = options.gzip ? '.gz' : '';
  const basics = new OutputFile(join(options.out, `title.basics.tsv${ext}`), options.gzip);
  const ratings = new OutputFile(join(options.out, `title.ratings.tsv${ext}`), options.gzip);
  const enrichment = new OutputFile(join(options.out, `enrichment.ndjson${ext}`), options.gzip);
  const files = [basics, ratings, enrichment];

  const stream = (name: keyof typeof STREAM) => mulberry32(deriveSeed(options.seed, STREAM[name]));
  const rngTitle = stream('title');
  const titles = new TitleComposer(rngTitle, stream('vocabulary'));
  const rows = new RowGenerator(rngTitle, stream('rating'), titles);
  const omdb = new OmdbComposer(stream('enrichment'));

  basics.push(BASICS_HEADER);
  ratings.push(RATINGS_HEADER);
  let kept = 0;
  for (let i = 0; i < options.titles; i++) {
    const row = rows.nextRow();
    if (KEPT_TYPES.has(row.type)) kept++;
    let due = basics.push(basicsLine(row));
    const ratingLine = ratingsLine(row);
    if (ratingLine !== null) due = ratings.push(ratingLine) || due;
    const enrichmentLine = omdb.enrichmentLine(row, options.enrichmentRatio, options.episodeEnrichmentRatio);
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
