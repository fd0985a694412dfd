import type { Title } from './title';

/**
 * Entries the title cache holds at most. Full with 20,000 titles sampled from the generated 1.3M
 * catalog it holds 27 MB of heap, 1.3 KB per entry (`bench/title-cache-memory.ts`); fully enriched
 * titles are about twice the average JSON, so the bound stays well under 100 MB.
 */
export const TITLE_CACHE_ENTRIES = 20_000;

/** A cached answer: the title, or null for an id the catalog does not hold. */
export interface CachedTitle {
  version: string;
  title: Title | null;
}

/**
 * Title lookups of one catalog version, least recently used evicted first. Every entry belongs to
 * the same version, so an answer from the cache is wholly that version's; moving to another
 * version empties it.
 *
 * An id is kept on its second miss, not its first: the first only puts the id in a bounded set of
 * recent misses. Kept titles live long enough to reach V8's old generation, so admitting every
 * miss would turn a stream of one-off lookups (a crawl over the catalog) into old-generation
 * garbage, which grows the heap and slows collection, for no hits.
 */
export class VersionedTitleCache {
  private version: string | null = null;
  private readonly entries = new Map<string, Title | null>();
  private readonly missedOnce = new Set<string>();

  constructor(private readonly maxEntries = TITLE_CACHE_ENTRIES) {}

  get size(): number {
    return this.entries.size;
  }

  has(imdbId: string): boolean {
    return this.entries.has(imdbId);
  }

  /** Keeps the cache for `version` (the live one, just read): any other version's entries go. */
  useVersion(version: string | null): void {
    if (version === this.version) return;
    this.entries.clear();
    this.missedOnce.clear();
    this.version = version;
  }

  /** The entry under the cache's version, marked as the most recently used. */
  lookup(imdbId: string): CachedTitle | undefined {
    const title = this.entries.get(imdbId);
    if (title === undefined || this.version === null) return undefined;
    this.entries.delete(imdbId);
    this.entries.set(imdbId, title);
    return { version: this.version, title };
  }

  /**
   * Keeps what one query read under `version`, on the id's second miss: only when that is the
   * cache's version, or the cache is empty (it then takes that version). An answer of any other
   * version is served, not kept.
   */
  store(version: string | null, imdbId: string, title: Title | null): void {
    if (version === null) return;
    if (this.entries.size > 0 && version !== this.version) return;
    if (!this.missedOnce.delete(imdbId)) {
      if (this.missedOnce.size >= this.maxEntries) this.missedOnce.clear();
      this.missedOnce.add(imdbId);
      return;
    }
    this.version = version;
    this.entries.delete(imdbId);
    this.entries.set(imdbId, title);
    if (this.entries.size > this.maxEntries) {
      this.entries.delete(this.entries.keys().next().value as string);
    }
  }
}
