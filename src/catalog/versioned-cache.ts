/** A cached answer and the catalog version it was read from. */
export interface Cached<V> {
  version: string;
  value: V;
}

/** Which answers a cache keeps: every one, or only some (see `SecondMissAdmission`). */
export interface Admission {
  admits(key: string): boolean;
  clear(): void;
}

const ADMIT_ALL: Admission = { admits: () => true, clear: () => undefined };

/**
 * Answers of one catalog version, least recently used evicted first. Every entry belongs to the
 * same version, so an answer from the cache is wholly that version's; moving to another version
 * empties it. Callers serve an entry only after a state read that had not finished when their
 * request arrived names the cache's version (`useVersion`), so no answer outlives a new ingest.
 */
export class VersionedCache<V> {
  private version: string | null = null;
  private readonly entries = new Map<string, V>();

  constructor(
    private readonly maxEntries: number,
    private readonly admission: Admission = ADMIT_ALL,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }

  /** Keeps the cache for `version` (the live one, just read): any other version's entries go. */
  useVersion(version: string | null): void {
    if (version === this.version) return;
    this.entries.clear();
    this.admission.clear();
    this.version = version;
  }

  /** The entry under the cache's version, marked as the most recently used. */
  lookup(key: string): Cached<V> | undefined {
    const value = this.entries.get(key);
    if (value === undefined || this.version === null) return undefined;
    this.entries.delete(key);
    this.entries.set(key, value);
    return { version: this.version, value };
  }

  /**
   * Keeps what one read found under `version`, when the admission rule lets it in, and only when
   * that is the cache's version or the cache is empty (it then takes that version). An answer of
   * any other version is served, not kept.
   */
  store(version: string | null, key: string, value: V): void {
    if (version === null) return;
    if (this.entries.size > 0 && version !== this.version) return;
    if (!this.admission.admits(key)) return;
    this.version = version;
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.maxEntries) {
      this.entries.delete(this.entries.keys().next().value as string);
    }
  }
}

/**
 * A key is kept on its second miss, not its first: the first only puts it in a bounded set of recent
 * misses. Kept answers live long enough to reach V8's old generation, so admitting every miss would
 * turn a stream of one-off reads (a crawl over the catalog) into old-generation garbage, which grows
 * the heap and slows collection, for no hits.
 */
export class SecondMissAdmission implements Admission {
  private readonly missedOnce = new Set<string>();

  constructor(private readonly maxRemembered: number) {}

  admits(key: string): boolean {
    if (this.missedOnce.delete(key)) return true;
    if (this.missedOnce.size >= this.maxRemembered) this.missedOnce.clear();
    this.missedOnce.add(key);
    return false;
  }

  clear(): void {
    this.missedOnce.clear();
  }
}
