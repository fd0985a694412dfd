import { Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { KeysMarkers } from '../auth/keys-marker';
import { ChangeFeed, NoChangeFeed } from '../database/change-feed';
import { type CatalogState, CatalogStateRepository, type StateRead } from './catalog-state.repository';
import { SingleFlight } from '../common/cache/single-flight';

/** A state read must settle in bounded time even when the database hangs. */
export const CATALOG_STATE_TIMEOUT_MS = 2_000;

/**
 * Without a live change feed: how old the newest reading may be for `current()` to answer with it,
 * without a query. A reading is sent before the state it reads, so every answer reflects each
 * catalog committed more than this long before it: the contract's second.
 */
export const CATALOG_STATE_MAX_AGE_MS = 1_000;

/** How often the provider looks whether a read is due (no statement unless one is). */
const POLL_TICK_MS = 50;

/**
 * Without a live change feed: a read is sent once the last one was sent this long ago (one small
 * statement per interval, whatever the load), so its answer arrives before the newest reading
 * expires: a tick and 150 ms for the query and a busy event loop, and requests never wait for it.
 */
export const CATALOG_STATE_POLL_MS = CATALOG_STATE_MAX_AGE_MS - POLL_TICK_MS - 150;

/**
 * Without a live change feed, a process nobody has asked for the state for this long (no catalog
 * request, no metrics scrape: `noteDemand`, `current`) counts as idle, and polls only every
 * CATALOG_STATE_IDLE_POLL_MS: an idle replica of a fleet behind a pooler costs the database 0.2
 * statements a second instead of 1.25. The first request after that waits for one read (the newest
 * reading is then too old to answer with), and the fast poll resumes.
 */
export const CATALOG_STATE_IDLE_AFTER_MS = 2_000;
/** The idle poll: it still brings the keys' marker, so keys stay within the contract's 10 s. */
export const CATALOG_STATE_IDLE_POLL_MS = 5_000;

/**
 * With a live change feed, a new catalog is announced at its commit, and the state is read again
 * only this often: a safety net that also proves the feed's session alive (it reads on it).
 */
export const CATALOG_STATE_SAFETY_NET_MS = 5_000;

/**
 * With a live change feed, how old the newest reading may be for `current()`: the safety net's
 * interval plus one read's timeout, so a late safety-net read holds no request.
 */
export const CATALOG_STATE_LIVE_MAX_AGE_MS = CATALOG_STATE_SAFETY_NET_MS + CATALOG_STATE_TIMEOUT_MS;

/** A state read and when it was sent: the state is at least as new as `sentAt`. */
export interface StateReading {
  state: CatalogState;
  sentAt: number;
}

/**
 * The live catalog state (version, title count, ingest time, enrichment) as this process knows it.
 *
 * Without a live change feed, every CATALOG_STATE_POLL_MS the process reads it (one statement per
 * interval, whatever the load; any read, a request's or /health's, counts as the interval's), so
 * `current()` answers cached requests with no database round trip (an idle process polls every
 * CATALOG_STATE_IDLE_POLL_MS instead, and its first request waits for a read):
 * the newest reading, while it is younger than CATALOG_STATE_MAX_AGE_MS and the last read succeeded;
 * otherwise it waits for a read, as `fresh()` does. Caches, ETags and /health all take the version
 * from the same newest reading, so they switch catalogs together.
 *
 * While the change feed is live (`ChangeFeed`: PostgreSQL without read replicas), a catalog notice
 * starts a read at once and no earlier reading is trusted after it; otherwise the state is read
 * every CATALOG_STATE_SAFETY_NET_MS on the feed's own session, and a reading is trusted for
 * CATALOG_STATE_LIVE_MAX_AGE_MS. When that read fails (a silently dead session times out) or the
 * feed is lost, the feed goes down and the process polls as without it, at once.
 *
 * `fresh()` never answers from a finished read: it joins the read in flight, or sends one, so its
 * answer is no older than the read it joined (at most one query's duration, bounded by
 * CATALOG_STATE_TIMEOUT_MS) and a database outage fails it. Any number of concurrent callers share
 * one query, so under load the state costs one small query at a time, whatever the request rate.
 *
 * Where a read runs on the primary (no read replicas, or on the feed's session), the same statement
 * reads the keys' marker, passed on to `KeysMarkers` for the key directory: one transaction a poll
 * for the catalog and the keys both.
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

  /**
   * A request of the catalog arrived, answered from a cache or not: the process is busy and keeps
   * the fast poll (its keys' marker keeps a disable's delay at about a second).
   */
  noteDemand(): void {
    this.lastAskedAt = Date.now();
  }

  /** The newest reading when it is recent and the database answered last time; else a fresh one. */
  current(): Promise<StateReading> {
    this.noteDemand();
    const newest = this.newest;
    if (
      newest &&
      !this.lastReadFailed &&
      this.newestNumber >= this.trustedFrom &&
      Date.now() - newest.sentAt < (this.feed.live ? CATALOG_STATE_LIVE_MAX_AGE_MS : CATALOG_STATE_MAX_AGE_MS)
    ) {
      return Promise.resolve(newest);
    }
    return this.fresh();
  }

  /**
   * This process just changed the catalog (its own ingest committed): the next `current()` reads
   * the state with a read sent after this call, neither from an earlier reading nor by joining a
   * read already in flight.
   */
  invalidate(): void {
    this.trustedFrom = this.started + 1;
    this.reads.forgetAll();
  }

  fresh(): Promise<StateReading> {
    return this.reads.run('feed or pool', () => this.read(() => this.readState()));
  }

  /**
   * A fresh reading taken on the reads' pool, the connections requests use, never on the change
   * feed's session (which can outlive them): what /health checks. Concurrent callers share one read.
   */
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

  /**
   * Without a live feed, a poll after the last read (a slow one while idle); with one, once the
   * newest good reading is a safety net old.
   */
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
