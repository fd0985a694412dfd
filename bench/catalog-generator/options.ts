/** The generator's command line. */
import { parseArgs } from 'node:util';

export interface Options {
  titles: number;
  out: string;
  seed: number;
  enrichmentRatio: number;
  episodeEnrichmentRatio: number;
  gzip: boolean;
}

/** Parses the arguments; prints the usage and exits on --help, throws (with the usage) on bad ones. */
export function parseOptions(argv: string[]): Options {
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
