import type { Versioned } from '../conditional/versioned';
import { SingleFlight } from './single-flight';

/**
 * A cached answer and the catalog version it was read from: the load's (label and load number,
 * `LOAD_VERSION_SQL`), so every committed load changes it.
 */
export interface Cached<V> {
  version: string;
  value: V;
}

/** Which answers a cache keeps: every one, or only some (see `SecondMissAdmission`). */
export interface Admission {
  admits(key: string): boolean;
  clear(): void;
}

export const ADMIT_ALL: Admission = { admits: () => true, clear: () => undefined };

/** The heap an entry holds, in bytes: its key, its value and the bookkeeping around them. */
export type Weigher<V> = (key: string, value: V) => number;

/**
 * Bookkeeping of one entry beside its key's and value's characters: the Map slot, the entry object,
 * two string headers and the key's fingerprint in the second-miss set (bench/cache-memory.ts).
 */
export const ENTRY_OVERHEAD_BYTES = 160;

/** A character beyond Latin-1: V8 keeps a string without one at one byte a character, else two. */
const BEYOND_LATIN1 = /[\u0100-\uffff]/;

/** The heap a flat string's characters take, as V8 stores it. */
export function stringBytes(text: string): number {
  return BEYOND_LATIN1.test(text) ? 2 * text.length : text.length;
}

/**
 * The objects around an answer's bytes beside the bytes themselves: ~200 B for a byte array's holder,
 * view and ArrayBuffer on Node 20 and 24; less for an envelope's holder and its two byte strings
 * (bench/cache-memory.ts), so an upper bound for both.
 */
export const ANSWER_OVERHEAD_BYTES = 200;

/**
 * The weight of an answer's bytes (or null) under a key: one byte each, held as byte strings in the
 * heap (`ByteString`) or as a byte array outside it.
 */
export function bytesWeight(key: string, bytes: { byteLength: number } | null): number {
  return (
    ENTRY_OVERHEAD_BYTES + stringBytes(key) + (bytes === null ? 0 : ANSWER_OVERHEAD_BYTES + bytes.byteLength)
  );
}

interface Entry<V> {
  value: V;
  bytes: number;
  /** When it was last stored or moved to the newest end, on its budget's clock. */
  used: number;
}

/** What a `CacheBudget` needs of each cache that shares it. */
interface BudgetMember {
  readonly bytes: number;
  readonly floorBytes: number;
  /** When its least recently used entry was last used (Infinity when it holds none). */
  oldestUse(): number;
  /** Drops its least recently used entry; the bytes it held. */
  evictOldest(): number;
}

/**
 * One CACHE_BUDGET_MB across several caches in one LRU order, so the budget follows the traffic; no
 * cache gives up entries below its floor.
 */
export class CacheBudget {
  private readonly members: BudgetMember[] = [];
  private clock = 0;

  constructor(readonly maxBytes: number) {}

  join(member: BudgetMember): void {
    const floors = this.members.reduce((sum, other) => sum + other.floorBytes, member.floorBytes);
    if (floors > this.maxBytes) throw new Error("The caches' floors exceed their shared budget");
    this.members.push(member);
  }

  /** The next use's time: a counter, cheaper than a clock and as good for ordering. */
  tick(): number {
    return ++this.clock;
  }

  /** The last use's time. */
  now(): number {
    return this.clock;
  }

  /** Evicts the least recently used entries of the caches above their floors until all fit. */
  settle(): void {
    let held = this.members.reduce((sum, member) => sum + member.bytes, 0);
    while (held > this.maxBytes) {
      let victim: BudgetMember | undefined;
      for (const member of this.members) {
        if (member.bytes > member.floorBytes && (!victim || member.oldestUse() < victim.oldestUse())) {
          victim = member;
        }
      }
      const freed = victim?.evictOldest() ?? 0;
      if (freed === 0) return;
      held -= freed;
    }
  }
}

/**
 * One catalog version's answers, bounded by bytes, LRU. Callers serve an entry only once a state read
 * unfinished when the request arrived names its version (`useVersion`): no answer outlives an ingest.
 */
export class VersionedCache<V> implements BudgetMember {
  private version: string | null = null;
  private readonly entries = new Map<string, Entry<V>>();
  private heldBytes = 0;
  private readonly reads = new SingleFlight<Versioned<V>>();
  private hitCount = 0;
  private missCount = 0;

  /** `floorBytes`: what this cache keeps however much the others sharing `budget` want. */
  constructor(
    private readonly budget: CacheBudget,
    private readonly weigh: Weigher<V>,
    private readonly admission: Admission = ADMIT_ALL,
    readonly floorBytes = 0,
  ) {
    budget.join(this);
  }

  /** The budget it shares: no entry heavier than all of it is kept. */
  get maxBytes(): number {
    return this.budget.maxBytes;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The weight of every entry held. */
  get bytes(): number {
    return this.heldBytes;
  }

  /** Lookups answered from the cache since start (read by metrics). */
  get hits(): number {
    return this.hitCount;
  }

  /** Lookups the cache could not answer since start, `noteMiss` included (read by metrics). */
  get misses(): number {
    return this.missCount;
  }

  /** Counts a miss found without `lookup` (the caller saw with `has` that the key is not held). */
  noteMiss(): void {
    this.missCount++;
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }

  /** The catalog version its entries belong to (null before its first). */
  get heldVersion(): string | null {
    return this.version;
  }

  /** Keeps the cache for `version` (the live one, just read): any other version's entries go. */
  useVersion(version: string | null): void {
    if (version === this.version) return;
    this.entries.clear();
    this.heldBytes = 0;
    this.admission.clear();
    this.version = version;
  }

  /** The entry under the cache's version, marked as the most recently used; counted as a hit or a miss. */
  lookup(key: string): Cached<V> | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined || this.version === null) {
      this.missCount++;
      return undefined;
    }
    this.hitCount++;
    // Moving an entry to the newest end costs a Map delete and set (~1.5 µs of a cached lookup in
    // its profile). One moved or stored fewer than a quarter of the entries ago is among the newest
    // quarter still (each tick puts at most one entry at that end), so it stays where it is: the
    // Map stays in `used` order, and eviction strays from exact LRU by at most a quarter of it.
    if (this.budget.now() - entry.used >= this.entries.size / 4) {
      entry.used = this.budget.tick();
      this.entries.delete(key);
      this.entries.set(key, entry);
    }
    return { version: this.version, value: entry.value };
  }

  /** The entry, when the cache holds `version`, without touching its recency (for building other answers). */
  peek(version: string | null, key: string): V | undefined {
    return version !== null && version === this.version ? this.entries.get(key)?.value : undefined;
  }

  /** Concurrent misses of one key share one read (`SingleFlight`); what it finds goes to `store`. */
  readMissing(key: string, read: () => Promise<Versioned<V>>): Promise<Versioned<V>> {
    return this.reads.run(key, async () => {
      const found = await read();
      this.store(found.version, key, found.value);
      return found;
    });
  }

  /**
   * Keeps an admitted answer only under the cache's version (an empty cache takes any); answers of
   * another version, or heavier than the whole cache, are served but not kept.
   */
  store(version: string | null, key: string, value: V): void {
    if (version === null) return;
    if (this.entries.size > 0 && version !== this.version) return;
    const bytes = this.weigh(key, value);
    if (bytes > this.maxBytes) return;
    if (!this.admission.admits(key)) return;
    this.version = version;
    this.remove(key);
    this.entries.set(key, { value, bytes, used: this.budget.tick() });
    this.heldBytes += bytes;
    this.budget.settle();
  }

  oldestUse(): number {
    const oldest = this.entries.values().next();
    return oldest.done ? Number.POSITIVE_INFINITY : oldest.value.used;
  }

  evictOldest(): number {
    const oldest = this.entries.keys().next();
    if (oldest.done) return 0;
    const bytes = this.entries.get(oldest.value)!.bytes;
    this.remove(oldest.value);
    return bytes;
  }

  private remove(key: string): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    this.entries.delete(key);
    this.heldBytes -= entry.bytes;
  }
}

/**
 * Kept on a key's second miss: admitting one-off reads (a crawl) would only grow V8's old generation.
 * Holds 31-bit fingerprints, not keys, so client-sent ids cannot grow it (docs/operations.md, Bounds).
 */
export class SecondMissAdmission implements Admission {
  private readonly missedOnce = new Set<number>();

  constructor(private readonly maxRemembered: number) {}

  admits(key: string): boolean {
    const fingerprint = fingerprintOf(key);
    if (this.missedOnce.delete(fingerprint)) return true;
    if (this.missedOnce.size >= this.maxRemembered) this.missedOnce.clear();
    this.missedOnce.add(fingerprint);
    return false;
  }

  clear(): void {
    this.missedOnce.clear();
  }
}

/** FNV-1a over the key's UTF-16 code units, cut to 31 bits: a small integer V8 keeps unboxed. */
export function fingerprintOf(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return hash >> 1;
}
