import { getHeapStatistics } from 'node:v8';
import type { AppConfig } from '../config/app-config';
import { StartupFailure } from './startup-failure';

/**
 * Heap the server needs beside its caches: its own live objects (~15 MB) and room for the garbage of
 * a full load between collections (bench/RESULTS.md, memory under load).
 */
export const HEAP_BESIDES_CACHES_MB = 96;

/**
 * Refuses a cache budget the heap cannot hold with room to spare, or the caches would end the
 * process with "heap out of memory" under load (the image caps the heap).
 */
export function checkHeapBudget(
  config: Pick<AppConfig, 'cacheBudgetBytes'>,
  heapLimitBytes = getHeapStatistics().heap_size_limit,
): void {
  const mb = (bytes: number) => Math.floor(bytes / 1024 / 1024);
  const needed = mb(config.cacheBudgetBytes) + HEAP_BESIDES_CACHES_MB;
  if (needed > mb(heapLimitBytes)) {
    throw new StartupFailure(
      `CACHE_BUDGET_MB=${mb(config.cacheBudgetBytes)} needs a V8 heap of at least ${needed} MB (the budget + ${HEAP_BESIDES_CACHES_MB}); this process may use ${mb(heapLimitBytes)} MB: lower CACHE_BUDGET_MB or raise node's --max-old-space-size`,
    );
  }
}
