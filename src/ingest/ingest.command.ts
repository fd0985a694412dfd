import { Command, CommandRunner, Option } from 'nest-commander';
import { setFlagsFromString } from 'node:v8';
import { CliError } from '../common/cli/cli-error';
import { readingDetail } from './reading-progress';
import { parseCliText } from '../common/cli/cli-options';
import {
  CatalogIngestService,
  type FileSummary,
  type IngestPhase,
  type IngestSummary,
} from './catalog-ingest.service';

interface IngestCommandOptions {
  basics?: string;
  ratings?: string;
  enrichment?: string;
  catalogVersion?: string;
  json?: boolean;
}

const PHASE_LABELS: Record<IngestPhase, string> = {
  basics: 'reading basics',
  ratings: 'reading ratings',
  enrichment: 'reading enrichment',
  merge: 'merging into the live catalog',
  'search-index': 'building the search lists',
  statistics: 'refreshing planner statistics',
};

const READ_PHASES: ReadonlySet<IngestPhase> = new Set(['basics', 'ratings', 'enrichment']);

/**
 * Caps V8's old-generation growth at 1.5× between full collections: peak RSS ~300 MB → ~170 MB,
 * speed unchanged (bench/RESULTS.md). Node warns flags set after start may not work: this one does.
 */
const INGEST_V8_FLAGS = '--heap-growing-percent=50';

@Command({
  name: 'catalog:ingest',
  description:
    'Load a catalog from IMDb basics and ratings (plain or .gz) and optional OMDb enrichment (NDJSON)',
})
export class IngestCommand extends CommandRunner {
  constructor(private readonly ingest: CatalogIngestService) {
    super();
  }

  async run(_args: string[], options: IngestCommandOptions): Promise<void> {
    if (!options.basics || !options.ratings)
      throw new CliError('catalog:ingest needs --basics PATH --ratings PATH');
    setFlagsFromString(INGEST_V8_FLAGS);
    const progress = options.json || !process.stderr.isTTY ? undefined : terminalProgress();
    const summary = await this.ingest.ingest(
      { basics: options.basics, ratings: options.ratings, enrichment: options.enrichment },
      { catalogVersion: options.catalogVersion, onProgress: progress?.report },
    );
    progress?.finish();
    console.log(options.json ? JSON.stringify(summaryJson(summary)) : describeSummary(summary));
  }

  @Option({ flags: '--basics <path>', description: 'IMDb title.basics.tsv (plain or .gz)' })
  parseBasics(value: string): string {
    return value;
  }

  @Option({ flags: '--ratings <path>', description: 'IMDb title.ratings.tsv (plain or .gz)' })
  parseRatings(value: string): string {
    return value;
  }

  @Option({ flags: '--enrichment <path>', description: 'NDJSON of OMDb API title objects (plain or .gz)' })
  parseEnrichment(value: string): string {
    return value;
  }

  @Option({
    flags: '--catalog-version <version>',
    description: 'version reported by /health (default: content hash)',
  })
  parseCatalogVersion(value: string): string {
    return parseCliText('--catalog-version', value, 200);
  }

  @Option({ flags: '--json', description: 'no progress; print the summary as one JSON line' })
  parseJson(): boolean {
    return true;
  }
}

/** One status line per phase on the terminal, redrawn at most once a second. */
function terminalProgress() {
  let phase: IngestPhase | undefined;
  let phaseStarted = 0;
  let latestRows = 0;
  let latestFraction: number | undefined;
  let lastDraw = 0;
  const draw = () => {
    lastDraw = Date.now();
    const seconds = (lastDraw - phaseStarted) / 1000;
    const detail = READ_PHASES.has(phase!)
      ? readingDetail(latestRows, seconds, latestFraction)
      : `… ${seconds.toFixed(0)} s`;
    process.stderr.write(`\r\x1b[2K${PHASE_LABELS[phase!]}${detail}`);
  };
  return {
    report: (next: IngestPhase, rows: number, fraction?: number) => {
      if (next !== phase) {
        if (phase) {
          draw();
          process.stderr.write('\n');
        }
        phase = next;
        phaseStarted = Date.now();
      }
      latestRows = rows;
      latestFraction = fraction;
      if (rows === 0 || Date.now() - lastDraw >= 1000) draw();
    },
    finish: () => {
      draw();
      process.stderr.write('\n');
    },
  };
}

/** A skip reason as a JSON key: snake_case, like every other key. */
const reasonKey = (reason: string) => reason.replace(/ /g, '_');

const fileJson = (file: FileSummary) => ({
  rows: file.rows,
  skipped: Object.fromEntries(Object.entries(file.skipped).map(([reason, n]) => [reasonKey(reason), n])),
});

/** The `--json` summary in the API's style (snake_case keys), like `keys:* --json`. */
export function summaryJson(summary: IngestSummary) {
  return {
    catalog_version: summary.catalogVersion,
    titles: summary.titles,
    by_type: summary.byType,
    enriched: summary.enriched,
    inserted: summary.inserted,
    updated: summary.updated,
    removed: summary.removed,
    files: {
      basics: fileJson(summary.files.basics),
      ratings: fileJson(summary.files.ratings),
      enrichment: summary.files.enrichment ? fileJson(summary.files.enrichment) : null,
    },
    ingested_at: summary.ingestedAt,
    duration_ms: summary.durationMs,
  };
}

function describeSummary(summary: IngestSummary): string {
  const skipped = (file: { skipped: Record<string, number> } | null) =>
    file && Object.keys(file.skipped).length > 0
      ? Object.entries(file.skipped)
          .map(([reason, count]) => `${reason} ${count}`)
          .join(', ')
      : 'none';
  const types = Object.entries(summary.byType)
    .map(([type, count]) => `${type} ${count}`)
    .join(', ');
  return [
    `Loaded catalog ${summary.catalogVersion}: ${summary.titles} titles (${types}).`,
    `Changes: ${summary.inserted} added, ${summary.updated} changed, ${summary.removed} removed; ${summary.enriched} enriched.`,
    `basics: ${summary.files.basics.rows} rows, skipped: ${skipped(summary.files.basics)}.`,
    `ratings: ${summary.files.ratings.rows} rows, skipped: ${skipped(summary.files.ratings)}.`,
    summary.files.enrichment
      ? `enrichment: ${summary.files.enrichment.rows} records, skipped: ${skipped(summary.files.enrichment)}.`
      : 'enrichment: none given.',
    `Done in ${(summary.durationMs / 1000).toFixed(1)} s.`,
  ].join('\n');
}
