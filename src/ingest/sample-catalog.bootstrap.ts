import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CatalogStateRepository } from '../catalog/catalog-state.repository';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { CatalogIngestService } from './catalog-ingest.service';

/** The team-written sample catalog shipped in `sample-data/` at the package root. */
export function sampleCatalogFiles(): { basics: string; ratings: string; enrichment: string } {
  let dir = __dirname;
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  const sample = join(dir, 'sample-data');
  return {
    basics: join(sample, 'title.basics.tsv'),
    ratings: join(sample, 'title.ratings.tsv'),
    enrichment: join(sample, 'enrichment.ndjson'),
  };
}

/**
 * First run of the embedded database: load the sample catalog when no catalog was ever ingested, so
 * `npm start` serves something real. Never with DATABASE_URL.
 */
@Injectable()
export class SampleCatalogBootstrap implements OnApplicationBootstrap {
  private readonly logger = new Logger('SampleCatalog');

  constructor(
    private readonly ingest: CatalogIngestService,
    private readonly catalogState: CatalogStateRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.database.kind !== 'embedded' || !this.config.firstRunSetup) return;
    if ((await this.catalogState.current()).ingestedAt !== null) return;
    const summary = await this.ingest.ingest(sampleCatalogFiles(), { catalogVersion: 'sample' });
    this.logger.log({ titles: summary.titles, enriched: summary.enriched }, 'Loaded the sample catalog');
  }
}
