import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import {
  ADMIT_ALL,
  CacheBudget,
  SecondMissAdmission,
  VersionedCache,
  bytesWeight,
} from '../common/cache/versioned-cache';
import type { EnvelopeBytes } from '../common/envelope';
import type { TypeFamily } from './title.repository';

/**
 * What each cache keeps of the one budget (CACHE_BUDGET_MB) whatever the others want; the other half
 * goes to whichever the traffic fills (see `CacheBudget`).
 */
export const CACHE_FLOORS = { titles: 0.25, searches: 0.125, lists: 0.125 } as const;
export type CacheName = keyof typeof CACHE_FLOORS;

/** Ids (or list pages) missed once that the second-miss rule remembers. */
const REMEMBERED_MISSES = 20_000;

/** What metrics read of a cache. */
export interface CacheSize {
  readonly size: number;
  readonly bytes: number;
  /** The budget the caches share. */
  readonly maxBytes: number;
  readonly floorBytes: number;
  /** Requests it answered, and requests it could not answer, since start. */
  readonly hits: number;
  readonly misses: number;
}

/**
 * Three caches of whole answers but their request ids (`EnvelopeBytes`; a title's is null when the
 * catalog has none) sharing one byte budget above their floors (`CACHE_FLOORS`): titles and list
 * pages kept on their second ask (crawls are one-off), searches on their first (docs/search.md).
 */
@Injectable()
export class CatalogCaches {
  readonly titles: VersionedCache<EnvelopeBytes | null>;
  readonly searches: VersionedCache<EnvelopeBytes>;
  readonly lists: VersionedCache<EnvelopeBytes>;

  constructor(@Inject(APP_CONFIG) config: Pick<AppConfig, 'cacheBudgetBytes'>) {
    const budget = new CacheBudget(config.cacheBudgetBytes);
    const floor = (name: CacheName) => Math.floor(config.cacheBudgetBytes * CACHE_FLOORS[name]);
    const remembered = () => new SecondMissAdmission(REMEMBERED_MISSES);
    this.titles = new VersionedCache<EnvelopeBytes | null>(
      budget,
      bytesWeight,
      remembered(),
      floor('titles'),
    );
    this.searches = new VersionedCache<EnvelopeBytes>(budget, bytesWeight, ADMIT_ALL, floor('searches'));
    this.lists = new VersionedCache<EnvelopeBytes>(budget, bytesWeight, remembered(), floor('lists'));
  }

  /** Each cache by name, for metrics. */
  byName(): ReadonlyArray<readonly [CacheName, CacheSize]> {
    return [
      ['titles', this.titles],
      ['searches', this.searches],
      ['lists', this.lists],
    ];
  }
}

/** What a list page depends on. */
export function listCacheKey(family: TypeFamily, page: number, limit: number): string {
  return `${family}\u0000${page}\u0000${limit}`;
}
