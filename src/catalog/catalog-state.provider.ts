import { Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { KeysMarkers } from '../auth/keys-marker';
import { ChangeFeed, NoChangeFeed } from '../database/change-feed';
import { type CatalogState, CatalogStateRepository, type StateRead } from './catalog-state.repository';
import { SingleFlight } from '../common/cache/single-flight';

/** A state read must settle in bounded time even when the database hangs. */
export const CATALOG_STATE_TIMEOUT_MS = 2_000;

/** Without a live feed, `current()` answers from a reading younger than this: the contract's 1 s. */
export const CATALOG_STATE_MAX_AGE_MS = 1_000;

/** How often the provider looks whether a read is due (no statement unless one is). */
const POLL_TICK_MS = 50;

/** Leaves a tick and 150 ms before the reading expires, so requests never wait for the poll. */
export const CATALOG_STATE_POLL_MS = CATALOG_STATE_MAX_AGE_MS - POLL_TICK_MS - 150;

/**
 * Without a feed, no demand for this long slows the poll to CATALOG_STATE_IDLE_POLL_MS (0.2
 * statements a second instead of 1.25); the first request after waits for one read.
 */
export const CATALOG_STATE_IDLE_AFTER_MS = 2_000;
/** The idle poll: it still brings the keys' marker, so keys stay within the contract's 10 s. */
export const CATALOG_STATE_IDLE_POLL_MS = 5_000;

/** With a live feed: the safety-net read, on the feed's session so it also proves it alive. */
export const CATALOG_STATE_SAFETY_NET_MS = 5_000;

/** The safety net plus one read's timeout, so a late safety-net read holds no request. */
export const CATALOG_STATE_LIVE_MAX_AGE_MS = CATALOG_STATE_SAFETY_NET_MS + CATALOG_STATE_TIMEOUT_MS;

/** A state read and when it was sent: the state is at least as new as `sentAt`. */
export interface StateReading {
  state: CatalogState;
  sentAt: number;
}

/**
 * The live catalog state; caches, ETags and /health use the same reading so they switch together.
 * Polling, the feed, staleness: docs/operations.md, Several replicas on one PostgreSQL, Change feed.
 */
@Injectable()
export class CatalogStateProvider implements OnApplicationBootstrap, OnApplicationShutdown {
  /** Concurrent callers share one read per connection kind: `fresh()`'s and `freshOnPool()`'s. */
  private readonly reads = new SingleFlight<StateReading>();
  private newest: StateReading | null = null;
  private lastReadFailed = false;
  /** Reads started, the number of the read behind `newest`, and the first read `current()` trusts. */
  private started = 0;
  private newestNumber = 0;
  private trustedFrom = 0;
  private lastReadSentAt = Number.NEGATIVE_INFINITY;
  /** When a request last needed the state: without a feed, the poll slows down once it is long ago. */
  private lastAskedAt = Number.NEGATIVE_INFINITY;
  private poll: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly repository: CatalogStateRepository,
    private readonly feed: ChangeFeed = new NoChangeFeed(),
    private readonly keysMarkers: KeysMarkers = new KeysMarkers(),
  ) {}

  onApplicationBootstrap(): void {
    this.unsubscribe = this.feed.subscribe({
      changed: (topic) => {
        if (topic !== 'catalog') return;
        this.invalidate();
        this.readInBackground();
      },
      // Notices may have been missed around the change: read now, on the connection that works.
      liveChanged: () => this.readInBackground(),
    });
    this.poll = setInterval(() => {
      if (this.readDue()) this.readInBackground();
    }, POLL_TICK_MS).unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.poll);
    this.unsubscribe?.();
  }

  /** A catalog request arrived (cached or not): keep the fast poll, so key disables stay ~1 s. */
  noteDemand(): void {
    this.lastAskedAt = Date.now();
  }

  /** The newest reading when it is recent and the database answered last time; else a fresh one. */
  current(): Promise<StateReading> {
    const trusted = this.trusted();
    return trusted ? Promise.resolve(trusted) : this.fresh();
  }

  /** What `current()` answers without a read, when it can: a cache hit then waits for nothing. */
  trusted(): StateReading | undefined {
    this.noteDemand();
    const newest = this.newest;
    if (
      newest &&
      !this.lastReadFailed &&
      this.newestNumber >= this.trustedFrom &&
      Date.now() - newest.sentAt < (this.feed.live ? CATALOG_STATE_LIVE_MAX_AGE_MS : CATALOG_STATE_MAX_AGE_MS)
    ) {
      return newest;
    }
    return undefined;
  }

  /** Our own load committed: the next `current()` must use a read sent after this call. */
  invalidate(): void {
    this.trustedFrom = this.started + 1;
    this.reads.forgetAll();
  }

  fresh(): Promise<StateReading> {
    return this.reads.run('feed or pool', () => this.read(() => this.readState()));
  }

  /** For /health: on the requests' pool, never the feed's session (which can outlive the pool). */
  freshOnPool(): Promise<StateReading> {
    return this.reads.run('pool', () => this.read(() => this.repository.read()));
  }

  private async read(readState: () => Promise<StateRead>): Promise<StateReading> {
    const sentAt = Date.now();
    this.lastReadSentAt = sentAt;
    const number = ++this.started;
    let read: StateRead;
    try {
      read = await withTimeout(readState(), CATALOG_STATE_TIMEOUT_MS);
    } catch (error) {
      this.lastReadFailed = true;
      throw error;
    }
    this.lastReadFailed = false;
    if (read.keysMarker) this.keysMarkers.observe(read.keysMarker, sentAt);
    const reading = { state: read.state, sentAt };
    if (number > this.newestNumber) {
      this.newest = reading;
      this.newestNumber = number;
    }
    return reading;
  }

  /** On the feed's session while it is live; when that fails, the feed is down and the reads' pool answers. */
  private async readState(): Promise<StateRead> {
    if (this.feed.live) {
      try {
        return await this.repository.read(this.feed);
      } catch {
        // The feed took itself down; its failure is logged there.
      }
    }
    return this.repository.read();
  }

  /** Without a feed, a poll after the last read (slower while idle); with one, a safety net. */
  private readDue(): boolean {
    const now = Date.now();
    const newest = this.newest;
    if (!this.feed.live || !newest || this.lastReadFailed) {
      const idle = now - this.lastAskedAt >= CATALOG_STATE_IDLE_AFTER_MS;
      return now - this.lastReadSentAt >= (idle ? CATALOG_STATE_IDLE_POLL_MS : CATALOG_STATE_POLL_MS);
    }
    return now - newest.sentAt >= CATALOG_STATE_SAFETY_NET_MS;
  }

  private readInBackground(): void {
    this.fresh().catch(() => undefined);
  }
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`catalog state query exceeded ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
