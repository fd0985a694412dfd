import type { Title } from './title';
import { SecondMissAdmission, VersionedCache } from './versioned-cache';

/**
 * Entries the title cache holds at most. Full with 20,000 titles sampled from the generated 1.3M
 * catalog it holds 27 MB of heap, 1.3 KB per entry (`bench/title-cache-memory.ts`); fully enriched
 * titles are about twice the average JSON, so the bound stays well under 100 MB.
 */
export const TITLE_CACHE_ENTRIES = 20_000;

/**
 * Title lookups by IMDb id (null: the catalog does not hold the id), kept on an id's second miss
 * (lookups are often one-off: a crawl over the catalog must not fill the heap with them).
 */
export class VersionedTitleCache extends VersionedCache<Title | null> {
  constructor(maxEntries = TITLE_CACHE_ENTRIES) {
    super(maxEntries, new SecondMissAdmission(maxEntries));
  }
}
