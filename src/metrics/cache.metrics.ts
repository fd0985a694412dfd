import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Registry } from 'prom-client';
import { CatalogCaches, type CacheSize } from '../catalog/catalog-caches';

/**
 * The size of each in-memory catalog cache against the CACHE_BUDGET_MB they share, and its hits and
 * misses, read at scrape time (the caches count with plain integers: nothing is measured per request).
 */
@Injectable()
export class CacheMetrics {
  constructor(registry: Registry, caches: CatalogCaches) {
    const gauge = (name: string, help: string, read: (cache: CacheSize) => number) =>
      new Gauge({
        name,
        help,
        labelNames: ['cache'],
        registers: [registry],
        collect() {
          for (const [cache, size] of caches.byName()) this.set({ cache }, read(size));
        },
      });
    const counter = (name: string, help: string, read: (cache: CacheSize) => number) =>
      new Counter({
        name,
        help,
        labelNames: ['cache'],
        registers: [registry],
        collect() {
          // The cache's own count since start is the counter's value.
          this.reset();
          for (const [cache, reading] of caches.byName()) this.inc({ cache }, read(reading));
        },
      });
    gauge('catalog_cache_bytes', 'Bytes held by a catalog cache (titles, searches, lists)', (c) => c.bytes);
    gauge(
      'catalog_cache_budget_bytes',
      'Bytes the catalog caches may hold together (CACHE_BUDGET_MB), the same for each',
      (c) => c.maxBytes,
    );
    gauge(
      'catalog_cache_floor_bytes',
      'Bytes of the budget a catalog cache keeps whatever the others want',
      (c) => c.floorBytes,
    );
    gauge('catalog_cache_entries', 'Answers held by a catalog cache', (c) => c.size);
    counter('catalog_cache_hits_total', 'Requests a catalog cache answered', (c) => c.hits);
    counter(
      'catalog_cache_misses_total',
      'Requests a catalog cache could not answer (read from the database)',
      (c) => c.misses,
    );
  }
}
