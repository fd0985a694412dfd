import { Injectable } from '@nestjs/common';
import type { LoadPhase } from '../catalog/store/catalog-load';
import { CatalogWriter } from '../catalog/store/catalog-writer';
import { TITLE_TYPES, type TitleType } from '../catalog/title';
import {
  BASICS_COLUMNS,
  type Parsed,
  RATINGS_COLUMNS,
  parseBasicsRow,
  parseRatingsRow,
} from './imdb-normalizer';
import type { ReadPosition } from './line-reader';
import { checkNdjson, readNdjson } from './ndjson-reader';
import { parseOmdbObject } from './omdb-normalizer';
import { checkTsvHeader, readTsv } from './tsv-reader';

export interface IngestFiles {
  /** IMDb title.basics.tsv, plain or gzip. */
  basics: string;
  /** IMDb title.ratings.tsv, plain or gzip. */
  ratings: string;
  /** NDJSON of OMDb API title objects, plain or gzip. */
  enrichment?: string;
}

export type IngestPhase = 'basics' | 'ratings' | 'enrichment' | LoadPhase;

export interface IngestOptions {
  catalogVersion?: string;
  /**
   * Called as rows are read (about every 10,000 rows), with the fraction of the file read (0–1),
   * and as each later phase starts (no fraction: its size is not known).
   */
  onProgress?: (phase: IngestPhase, rowsRead: number, fractionRead?: number) => void;
}

export interface FileSummary {
  rows: number;
  skipped: Record<string, number>;
}

export interface IngestSummary {
  catalogVersion: string;
  titles: number;
  byType: Record<TitleType, number>;
  enriched: number;
  inserted: number;
  updated: number;
  removed: number;
  files: { basics: FileSummary; ratings: FileSummary; enrichment: FileSummary | null };
  ingestedAt: string;
  durationMs: number;
}

const PROGRESS_EVERY_ROWS = 10_000;

/**
 * `catalog:ingest`: streams the inputs, counts what it skips, and hands the rest to CatalogWriter;
 * any refusal leaves the live catalog untouched.
 */
@Injectable()
export class CatalogIngestService {
  constructor(private readonly writer: CatalogWriter) {}

  async ingest(files: IngestFiles, options: IngestOptions = {}): Promise<IngestSummary> {
    const started = Date.now();
    // Refuse a wrong file before staging anything large.
    await checkTsvHeader(files.basics, BASICS_COLUMNS);
    await checkTsvHeader(files.ratings, RATINGS_COLUMNS);
    if (files.enrichment) await checkNdjson(files.enrichment);

    const progress: NonNullable<IngestOptions['onProgress']> = options.onProgress ?? (() => undefined);
    const byType = Object.fromEntries(TITLE_TYPES.map((type) => [type, 0])) as Record<TitleType, number>;
    const basics: FileSummary = { rows: 0, skipped: {} };
    const ratings: FileSummary = { rows: 0, skipped: {} };
    const enrichmentFile = files.enrichment;
    const enrichment: FileSummary | null = enrichmentFile ? { rows: 0, skipped: {} } : null;

    const titles = kept(
      (position) => readTsv(files.basics, BASICS_COLUMNS, position),
      (row) => {
        const parsed = parseBasicsRow(row.fields);
        if (parsed.ok) byType[parsed.value.type] += 1;
        return parsed;
      },
      basics,
      'basics',
      progress,
    );
    const result = await this.writer.replaceCatalog(
      {
        titles,
        ratings: kept(
          (position) => readTsv(files.ratings, RATINGS_COLUMNS, position),
          (row) => parseRatingsRow(row.fields),
          ratings,
          'ratings',
          progress,
        ),
        enrichments:
          enrichmentFile && enrichment
            ? kept(
                (position) => readNdjson(enrichmentFile, position),
                (line) => parseOmdbObject(line.value),
                enrichment,
                'enrichment',
                progress,
              )
            : undefined,
      },
      { catalogVersion: options.catalogVersion, onPhase: (phase) => progress(phase, 0) },
    );
    if (enrichment) countUnusedEnrichment(enrichment, result.enrichedCount);
    return {
      catalogVersion: result.catalogVersion,
      titles: result.titleCount,
      byType,
      enriched: result.enrichedCount,
      inserted: result.inserted,
      updated: result.updated,
      removed: result.removed,
      files: { basics, ratings, enrichment },
      ingestedAt: result.ingestedAt.toISOString(),
      durationMs: Date.now() - started,
    };
  }
}

/** The skip reason of enrichment records that enriched no title. */
export const UNUSED_ENRICHMENT_REASON = 'not in the catalog or repeated';

/** Parsed enrichment records that enriched no title (unknown id, or superseded by a later one). */
function countUnusedEnrichment(summary: FileSummary, enrichedTitles: number): void {
  const skippedWhileReading = Object.values(summary.skipped).reduce((sum, count) => sum + count, 0);
  const unused = summary.rows - skippedWhileReading - enrichedTitles;
  if (unused > 0) summary.skipped[UNUSED_ENRICHMENT_REASON] = unused;
}

/** Parses rows, yields the kept values, counts rows and skip reasons, and reports progress. */
async function* kept<T, Row>(
  read: (position: ReadPosition) => AsyncIterable<Row>,
  parse: (row: Row) => Parsed<T>,
  summary: FileSummary,
  phase: IngestPhase,
  progress: NonNullable<IngestOptions['onProgress']>,
): AsyncGenerator<T> {
  const position: ReadPosition = { bytesRead: 0, size: 0 };
  const fraction = () => (position.size > 0 ? Math.min(1, position.bytesRead / position.size) : undefined);
  progress(phase, 0, 0);
  for await (const row of read(position)) {
    summary.rows += 1;
    if (summary.rows % PROGRESS_EVERY_ROWS === 0) progress(phase, summary.rows, fraction());
    const parsed = parse(row);
    if (parsed.ok) yield parsed.value;
    else summary.skipped[parsed.reason] = (summary.skipped[parsed.reason] ?? 0) + 1;
  }
  progress(phase, summary.rows, 1);
}
