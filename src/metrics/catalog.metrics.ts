import { Injectable, Logger } from '@nestjs/common';
import { Gauge, Registry } from 'prom-client';
import { CatalogStateProvider } from '../catalog/catalog-state.provider';

/**
 * From the newest state reading (no query while it is recent). NaN when the read fails, so graphs
 * show a gap rather than a stale or zero value.
 */
@Injectable()
export class CatalogMetrics {
  private readonly logger = new Logger('Metrics');

  constructor(registry: Registry, catalogState: CatalogStateProvider) {
    const titles = new Gauge({
      name: 'catalog_titles',
      help: 'Titles in the live catalog',
      registers: [registry],
      collect: () => read(),
    });
    const lastIngest = new Gauge({
      name: 'catalog_last_ingest_timestamp_seconds',
      help: 'Unix time of the last finished catalog ingest (0 before any)',
      registers: [registry],
      collect: () => read(),
    });
    let pending: Promise<void> | null = null;
    // Both gauges share one read per scrape.
    const read = () =>
      (pending ??= catalogState
        .current()
        .then(
          ({ state }) => {
            titles.set(state.titleCount);
            lastIngest.set(state.ingestedAt ? state.ingestedAt.getTime() / 1000 : 0);
          },
          (error: unknown) => {
            this.logger.warn({ err: error }, 'The catalog state could not be read for metrics');
            titles.set(Number.NaN);
            lastIngest.set(Number.NaN);
          },
        )
        .finally(() => (pending = null)));
  }
}
