import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error';
import { hashApiKey, readBearerCredentials } from './api-key-format';
import type { KeyPolicy } from '../limits/key-policy';
import { ChangeFeed, NoChangeFeed } from '../database/change-feed';
import { ApiKeyService, type StoredKey } from './api-key.service';
import { KEY_CHANGE_OVERLAP_S, type KeysMarker, KeysMarkers, sameKeysMarker } from './keys-marker';

/**
 * Own re-read interval where no keys' marker ever came (replicas serve state reads) and no feed is
 * live: a disable is refused within about this long (contract: 10 s). docs/limits.md, Keys.
 */
export const KEY_REFRESH_INTERVAL_MS = 2_000;
/**
 * Re-read on its own when no marker came for this long (a silently dead session, failing state reads):
 * a disable is then refused within this plus a read and a tick, inside the contract's 10 s.
 */
export const KEY_SAFETY_NET_MS = 7_000;
/** How often the directory checks whether a refresh is due (no statement unless one is). */
const REFRESH_TICK_MS = 1_000;
/** Deletions and changes made outside `updated_at` are picked up by a full reload this often. */
const FULL_RELOAD_INTERVAL_MS = 60_000;
/**
 * An unknown well-formed key waits for a re-read (a key the CLI just created works at once); re-reads
 * start at most this often, so forged keys cost at most 1000 / this statements a second.
 */
export const KEY_MISS_REREAD_INTERVAL_MS = 50;
/** An unknown key waits at most this long for the re-read: a slow database does not hold its 401. */
const KEY_MISS_WAIT_MS = 250;

/**
 * Every stored key by hash on every replica, kept current by change notices or polling: a known or
 * malformed key costs no query; unknown ones share throttled re-reads (docs/limits.md, Keys).
 */
@Injectable()
export class ApiKeyDirectory implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('ApiKeys');
  private byHash = new Map<string, StoredKey>();
  /** Each key's live hashes: its current secret and, after a rotation, the previous one. */
  private hashesById = new Map<string, string[]>();
  private timer: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;
  private unsubscribeFeed: (() => void) | undefined;
  private lastRefreshAt = 0;
  private lastRefreshStartedAt = 0;
  private lastFullLoadAt = 0;
  private refreshing = false;
  /** The re-read that has not started yet (later misses and notices join it), and the latest one. */
  private nextReread: Promise<void> | undefined;
  private lastReread: Promise<void> = Promise.resolve();
  private lastRereadAt = Number.NEGATIVE_INFINITY;
  private unsubscribeMarkers: (() => void) | undefined;
  /** The newest keys' marker read and when its statement was sent; the one the keys held match. */
  private observedMarker: KeysMarker | null = null;
  private lastMarkerSentAt = Number.NEGATIVE_INFINITY;
  private appliedMarker: KeysMarker | null = null;
  constructor(
    private readonly apiKeys: ApiKeyService,
    private readonly feed: ChangeFeed = new NoChangeFeed(),
    private readonly markers: KeysMarkers = new KeysMarkers(),
  ) {}

  async onModuleInit(): Promise<void> {
    this.unsubscribe = this.apiKeys.onChange((key) => this.put(key));
    this.unsubscribeFeed = this.feed.subscribe({
      changed: (topic) => {
        if (topic === 'keys') void this.scheduleReread();
      },
      // Notices may have been missed around the change.
      liveChanged: () => void this.refresh(),
    });
    this.unsubscribeMarkers = this.markers.subscribe((marker, sentAt) => this.observe(marker, sentAt));
    await this.reloadAll();
    this.timer = setInterval(() => {
      if (this.refreshDue()) void this.refresh();
    }, REFRESH_TICK_MS).unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
    this.unsubscribe?.();
    this.unsubscribeFeed?.();
    this.unsubscribeMarkers?.();
  }

  /**
   * The key policy for an Authorization header, or the contract's 401/403 error. A known key is
   * answered from memory, synchronously; a well-formed unknown one after the next miss re-read.
   * Only the key's hash is kept: the header itself is never stored.
   */
  authenticate(authorization: string | string[] | undefined): KeyPolicy | Promise<KeyPolicy> {
    const credentials = readBearerCredentials(authorization);
    if (credentials.kind === 'missing') throw new ApiError('MISSING_API_KEY');
    if (credentials.kind === 'invalid') throw new ApiError('INVALID_API_KEY');
    // The map is keyed by SHA-256 of 256-bit secrets: timing reveals nothing usable about a key.
    const keyHash = hashApiKey(credentials.key);
    const stored = this.byHash.get(keyHash);
    if (stored) return policyOf(stored, keyHash, Date.now());
    return this.awaitMissReread().then(() => {
      const created = this.byHash.get(keyHash);
      if (!created) throw new ApiError('INVALID_API_KEY');
      return policyOf(created, keyHash, Date.now());
    });
  }

  /**
   * When a key expires, and when its previous secret stops working if a rotation's overlap is still
   * running at `now` (each null otherwise): what `GET /v1/usage` tells the key's client.
   */
  lifetimeOf(id: string, now = Date.now()): { expiresAt: number | null; previousKeyEndsAt: number | null } {
    const hash = this.hashesById.get(id)?.[0];
    const key = hash === undefined ? undefined : this.byHash.get(hash);
    if (!key) return { expiresAt: null, previousKeyEndsAt: null };
    const rotating = key.previousKeyEndsAt !== null && now < key.previousKeyEndsAt;
    return { expiresAt: key.expiresAt, previousKeyEndsAt: rotating ? key.previousKeyEndsAt : null };
  }

  /**
   * How many keys held now are usable but expire within `withinMs` of `now` (disabled and expired
   * keys left out): for the keys-expiring-soon gauge, which names no key.
   */
  countExpiringWithin(withinMs: number, now = Date.now()): number {
    let count = 0;
    for (const [hash] of this.hashesById.values()) {
      const key = this.byHash.get(hash);
      if (!key || key.disabled || key.expiresAt === null) continue;
      if (key.expiresAt > now && key.expiresAt - now <= withinMs) count++;
    }
    return count;
  }

  /**
   * A full reload once a minute; otherwise a re-read once neither a refresh nor a keys' marker came
   * within the interval (a marker that moved has started a re-read of its own).
   */
  private refreshDue(): boolean {
    const now = Date.now();
    if (now - this.lastFullLoadAt >= FULL_RELOAD_INTERVAL_MS) return true;
    const markersCome = this.feed.live || this.lastMarkerSentAt > Number.NEGATIVE_INFINITY;
    const interval = markersCome ? KEY_SAFETY_NET_MS : KEY_REFRESH_INTERVAL_MS;
    return now - Math.max(this.lastRefreshStartedAt, this.lastMarkerSentAt) >= interval;
  }

  /** A keys' marker read with the catalog state: a re-read when it differs from the keys held. */
  private observe(marker: KeysMarker, sentAt: number): void {
    if (sentAt < this.lastMarkerSentAt) return;
    this.observedMarker = marker;
    this.lastMarkerSentAt = sentAt;
    if (!sameKeysMarker(marker, this.appliedMarker)) void this.scheduleReread();
  }

  /** Re-reads recent changes (or everything, now and then, or after failures); never throws. */
  async refresh(): Promise<void> {
    if (this.refreshing) return;
    this.refreshing = true;
    const startedAt = Date.now();
    this.lastRefreshStartedAt = startedAt;
    try {
      if (startedAt - this.lastFullLoadAt >= FULL_RELOAD_INTERVAL_MS) {
        await this.reloadAll();
      } else {
        await this.readRecentChanges();
      }
    } catch (error) {
      // Keep serving the keys as last known; the next refresh reads a longer stretch.
      this.logger.warn({ err: error }, 'Could not refresh the API keys');
    } finally {
      this.refreshing = false;
    }
  }

  /**
   * Resolves after a re-read that started after this call (it sees keys committed before the request),
   * or after KEY_MISS_WAIT_MS; misses join the next re-read, one running at a time.
   */
  private async awaitMissReread(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, KEY_MISS_WAIT_MS)));
    await Promise.race([this.scheduleReread(), waited]);
    clearTimeout(timer);
  }

  /** A re-read of the recent changes that starts after this call (for a miss, or a change notice). */
  private scheduleReread(): Promise<void> {
    if (this.nextReread) return this.nextReread;
    const previous = this.lastReread;
    const reread = (async () => {
      await previous;
      const wait = this.lastRereadAt + KEY_MISS_REREAD_INTERVAL_MS - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      // From here on, a new miss may have come after this read's snapshot: it schedules the next.
      this.nextReread = undefined;
      this.lastRereadAt = Date.now();
      try {
        await this.readRecentChanges();
      } catch (error) {
        // The periodic refresh warns about an unreachable database; a flood must not repeat it.
        this.logger.debug({ err: error }, 'Could not re-read the recently changed API keys');
      }
    })();
    this.nextReread = reread;
    this.lastReread = reread;
    return reread;
  }

  /**
   * Every key changed since the last good read (plus the overlap), on the database clock; everything is
   * reloaded when the count says a key was deleted or missed.
   */
  private async readRecentChanges(): Promise<void> {
    const startedAt = Date.now();
    const marker = this.observedMarker;
    const seconds = (startedAt - this.lastRefreshAt) / 1000 + KEY_CHANGE_OVERLAP_S;
    for (const key of await this.apiKeys.statesChangedWithin(seconds)) this.put(key);
    this.lastRefreshAt = Math.max(this.lastRefreshAt, startedAt);
    if (marker && marker.count !== this.hashesById.size) return this.reloadAll();
    this.appliedMarker = marker;
  }

  private async reloadAll(): Promise<void> {
    const startedAt = Date.now();
    const marker = this.observedMarker;
    const keys = await this.apiKeys.allStates();
    this.byHash = new Map();
    this.hashesById = new Map();
    for (const key of keys) this.put(key);
    this.appliedMarker = marker;
    this.lastFullLoadAt = startedAt;
    this.lastRefreshAt = startedAt;
    this.lastRefreshStartedAt = Math.max(this.lastRefreshStartedAt, startedAt);
  }

  /** Both of a key's secrets lead to the same state (one id: one minute window, one quota). */
  private put(key: StoredKey): void {
    const hashes = key.previousKeyHash === null ? [key.keyHash] : [key.keyHash, key.previousKeyHash];
    for (const old of this.hashesById.get(key.policy.id) ?? []) {
      if (!hashes.includes(old)) this.byHash.delete(old);
    }
    for (const hash of hashes) this.byHash.set(hash, key);
    this.hashesById.set(key.policy.id, hashes);
  }
}

const EXPIRED_MESSAGE = "The API key has expired. Ask the key's issuer to extend it, or use another key.";
const RETIRED_MESSAGE =
  "This secret of the API key was replaced by a rotation and its overlap has ended. Use the key's new secret.";

/**
 * A stored key's policy for the secret whose hash was presented, or the contract's 403 when the key
 * is disabled, has expired, or the secret is a rotated-out one past its overlap. Checked against the
 * clock on every request, so an expiry or an overlap's end is exact on every replica without a re-read.
 */
export function policyOf(stored: StoredKey, keyHash: string, now: number): KeyPolicy {
  if (stored.disabled) throw new ApiError('API_KEY_DISABLED');
  if (stored.expiresAt !== null && now >= stored.expiresAt) {
    throw new ApiError('API_KEY_DISABLED', EXPIRED_MESSAGE);
  }
  if (keyHash !== stored.keyHash && (stored.previousKeyEndsAt === null || now >= stored.previousKeyEndsAt)) {
    throw new ApiError('API_KEY_DISABLED', RETIRED_MESSAGE);
  }
  return stored.policy;
}
