import { Injectable } from '@nestjs/common';
import { Gauge, Registry } from 'prom-client';
import { CatalogCaches } from '../catalog/catalog-caches';

/** The size of each in-memory catalog cache against its share of CACHE_BUDGET_MB, read at scrape time. */
@Injectable()
export class CacheMetrics {
  constructor(registry: Registry, caches: CatalogCaches) {
    const gauge = (
      name: string,
      help: string,
      read: (cache: { size: number; bytes: number; maxBytes: number }) => number,
    ) =>
      new Gauge({
        name,
        help,
        labelNames: ['cache'],
        registers: [registry],
        collect() {
          for (const [cache, size] of caches.byName()) this.set({ cache }, read(size));
        },
      });
    gauge('catalog_cache_bytes', 'Bytes held by a catalog cache (titles, searches, lists)', (c) => c.bytes);
    gauge(
      'catalog_cache_budget_bytes',
      'Bytes a catalog cache may hold (its share of CACHE_BUDGET_MB)',
      (c) => c.maxBytes,
    );
    gauge('catalog_cache_entries', 'Answers held by a catalog cache', (c) => c.size);
  }
}
