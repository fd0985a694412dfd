import { performance } from 'node:perf_hooks';
import {
  MAX_OVERLOAD_RETRY_AFTER_SECONDS,
  OVERLOAD_RETRY_AFTER_SECONDS,
  overloadRefusalHeaders,
} from '../../common/access/access-headers';
import { ApiError } from '../../common/errors/api-error';
import { AwaitedRetries } from './awaited-retries';

/** The share of a saturated process's work that searches may take while other requests wait. */
export const SEARCH_SHARE = 0.05;
/**
 * What a search that reads the database costs, in ordinary requests (cached title lookups): the
 * weight of each search in the share. Measured, not tuned: at 1.3M titles with PostgreSQL on the
 * same cores, a search served cost the lookups beside it 4.4–8.6 lookups (median 4.8; 2–3 of them
 * the server's own CPU, the rest PostgreSQL's). See docs/search.md.
 */
export const SEARCH_COST_IN_REQUESTS = 5;
/** Event-loop utilization over one window from which the process counts as saturated. */
export const SATURATED_UTILIZATION = 0.9;
/**
 * Searches a saturated window's other requests let start in the next: searches × their cost is
 * SEARCH_SHARE of the work, the other requests the rest.
 */
export const SEARCHES_PER_OTHER_REQUEST = SEARCH_SHARE / ((1 - SEARCH_SHARE) * SEARCH_COST_IN_REQUESTS);
/** Searches that may always start per window, whatever the other traffic. */
export const MIN_SEARCHES_PER_WINDOW = 5;
/**
 * Searches in flight (running or waiting) below which a search is never refused: a few clients
 * searching at once, each one request at a time, are always served (twice the default search
 * concurrency of 4; the PgBouncer-fleet e2e runs 6 clients per replica). Only more is overload.
 */
export const ALWAYS_SERVED_SEARCHES = 8;
/**
 * How long a search may wait for its turn, unless fewer than ALWAYS_SERVED_SEARCHES are in flight.
 * One whose turn cannot come within it (by the estimate below) is refused on arrival; one still
 * waiting when it ends is refused then.
 */
export const MAX_SEARCH_WAIT_MS = 150;
/** Searches that may wait at once; more are refused at once. */
export const MAX_WAITING_SEARCHES = 1_000;
/**
 * Weight of the newest window in the running averages of searches started, window lengths and
 * searchers (about 1 s).
 */
const RATE_WEIGHT = 0.1;
/** Weight of the newest duration in the running average of search durations. */
const DURATION_WEIGHT = 0.2;
/**
 * The duration the estimate assumes until a search has finished: a cold process flooded with
 * searches then refuses on arrival what it could not start in time, instead of queueing every one of
 * them on an estimate of zero and refusing them only when their wait runs out.
 */
export const ASSUMED_SEARCH_DURATION_MS = 100;

/** What the process did over one window (see `SearchAdmission`). */
export interface WindowLoad {
  /** Event-loop utilization, 0 to 1. */
  utilization: number;
  /** HTTP requests that arrived, searches included. */
  requests: number;
}

export interface SearchShareOptions {
  /** Searches that may run at once (the search database's own concurrency); more wait their turn. */
  concurrency: number;
  /** The length of the windows `endWindow` closes. */
  windowMs: number;
  maxWaitMs?: number;
  maxWaiting?: number;
  /** Milliseconds from any fixed origin (default: the monotonic clock, which never jumps). */
  clock?: () => number;
}

/** Called once when an admitted search has finished, whatever its outcome. */
export type SearchDone = () => void;

interface WaitingSearch {
  start: (done: SearchDone) => void;
  /** Refuses the search when its wait runs out; none for a search among the few always served. */
  timer?: NodeJS.Timeout;
}

/**
 * Searches are admitted by two bounds, and wait in one arrival-order queue with a bounded wait.
 *
 * - Concurrency: at most `concurrency` searches run at once (the search database's own: its pool
 *   size, or the embedded database's limit), so an admitted search never queues again for a
 *   connection.
 * - Share of a saturated process, weighed by cost: over each window the process counts its
 *   requests; when the window ends with the event loop saturated and requests other than searches
 *   arrived, searches may start in the next window as many as cost SEARCH_SHARE of the work, a search
 *   weighing SEARCH_COST_IN_REQUESTS other requests (SEARCHES_PER_OTHER_REQUEST per other request,
 *   never fewer than MIN_SEARCHES_PER_WINDOW), so lookups, lists, /health and the limits keep most of
 *   the process. Otherwise (idle process, or searches alone) the window sets no bound.
 *
 * A few searches are always served: one that finds fewer than ALWAYS_SERVED_SEARCHES in flight
 * (running or waiting: see `amongTheFew`) waits for its turn however long, neither refused on
 * arrival nor timed out. Bounded queue wait for the others: a search that arrives when it cannot
 * start waits at most `maxWaitMs`. On arrival its wait is estimated from its place in the queue: the
 * running average of search durations (ASSUMED_SEARCH_DURATION_MS until one has finished) × the
 * searches that must finish first / `concurrency`, and the windows its share needs; when the estimate
 * exceeds `maxWaitMs`, or `maxWaiting` already wait, it is refused at once. A waiting search not
 * started by `maxWaitMs` is refused then. A refusal is 500 INTERNAL_ERROR with `Retry-After`,
 * flagged as not charged to the monthly quota (see `ApiError.uncharged`) and as expected (not
 * logged one by one). Its Retry-After is how long the searchers here would take to be started (see
 * `retryAfterSeconds`).
 */
export class SearchShare {
  private budget = Number.POSITIVE_INFINITY;
  private started = 0;
  private searchesArrived = 0;
  private running = 0;
  private refused = 0;
  /**
   * Running averages per window (RATE_WEIGHT) of the searches started and of the window's measured
   * length: a timer's windows run long on a saturated process, when Retry-After matters.
   */
  private startedPerWindow = 0;
  private windowMsAverage: number;
  private lastWindowEndedAt: number;
  /** Running average per window (RATE_WEIGHT) of the searchers known: see `retryAfterSeconds`. */
  private searchers = 0;
  private readonly awaitedRetries = new AwaitedRetries(MAX_OVERLOAD_RETRY_AFTER_SECONDS);
  /** What the refusals of this window tell their clients to wait (set when a window ends). */
  private retryAfter = OVERLOAD_RETRY_AFTER_SECONDS;
  private averageDurationMs = ASSUMED_SEARCH_DURATION_MS;
  private durationMeasured = false;
  private windowEndsAt: number;
  private readonly waiting: WaitingSearch[] = [];
  private readonly maxWaitMs: number;
  private readonly maxWaiting: number;
  private readonly clock: () => number;

  constructor(private readonly options: SearchShareOptions) {
    this.maxWaitMs = options.maxWaitMs ?? MAX_SEARCH_WAIT_MS;
    this.maxWaiting = options.maxWaiting ?? MAX_WAITING_SEARCHES;
    this.clock = options.clock ?? (() => performance.now());
    this.lastWindowEndedAt = this.clock();
    this.windowEndsAt = this.lastWindowEndedAt + options.windowMs;
    this.windowMsAverage = options.windowMs;
  }

  get waitingCount(): number {
    return this.waiting.length;
  }

  get runningCount(): number {
    return this.running;
  }

  /** Searches refused since the last call (for a periodic log line instead of one per refusal). */
  takeRefusedCount(): number {
    const refused = this.refused;
    this.refused = 0;
    return refused;
  }

  /**
   * The search may start when this returns (or its promise resolves): call the `SearchDone` it gives
   * when the search has finished. Throws (or rejects with) the refusal when it cannot start in time.
   */
  admit(): Promise<SearchDone> | SearchDone {
    this.searchesArrived++;
    if (this.waiting.length === 0 && this.canStart()) return this.start();
    const few = this.amongTheFew();
    if (this.waiting.length >= this.maxWaiting || (!few && this.estimatedWaitMs() > this.maxWaitMs)) {
      throw this.refuse();
    }
    return new Promise<SearchDone>((resolve, reject) => {
      const entry: WaitingSearch = { start: resolve };
      if (!few) {
        entry.timer = setTimeout(() => {
          this.waiting.splice(this.waiting.indexOf(entry), 1);
          reject(this.refuse());
        }, this.maxWaitMs);
      }
      this.waiting.push(entry);
    });
  }

  /** Ends a window: sets the next window's budget and starts the searches it allows. */
  endWindow(load: WindowLoad): void {
    const now = this.clock();
    this.startedPerWindow = runningAverage(this.startedPerWindow, this.started, RATE_WEIGHT);
    this.windowMsAverage = runningAverage(this.windowMsAverage, now - this.lastWindowEndedAt, RATE_WEIGHT);
    this.lastWindowEndedAt = now;
    const searchers = this.awaitedRetries.pending(now) + this.running + this.waiting.length;
    this.searchers = runningAverage(this.searchers, searchers, RATE_WEIGHT);
    const others = load.requests - this.searchesArrived;
    this.budget =
      load.utilization >= SATURATED_UTILIZATION && others > 0
        ? Math.max(MIN_SEARCHES_PER_WINDOW, Math.floor(others * SEARCHES_PER_OTHER_REQUEST))
        : Number.POSITIVE_INFINITY;
    this.started = 0;
    this.searchesArrived = 0;
    this.windowEndsAt = now + this.options.windowMs;
    this.startWaiting();
    this.retryAfter = this.retryAfterSeconds();
  }

  /**
   * How long a search arriving now would wait: until `concurrency` slots have freed for the running
   * and waiting searches ahead of it, and until a window has budget left for it.
   */
  private estimatedWaitMs(): number {
    const { concurrency, windowMs } = this.options;
    const mustFinish = this.running + this.waiting.length - concurrency + 1;
    const forSlot = mustFinish > 0 ? (mustFinish * this.averageDurationMs) / concurrency : 0;
    if (this.budget === Number.POSITIVE_INFINITY) return forSlot;
    const leftThisWindow = Math.max(0, this.budget - this.started);
    const beyond = this.waiting.length + 1 - leftThisWindow;
    const windows = beyond > 0 ? Math.ceil(beyond / this.budget) : 0;
    const forBudget =
      windows > 0 ? Math.max(0, this.windowEndsAt - this.clock()) + (windows - 1) * windowMs : 0;
    return Math.max(forSlot, forBudget);
  }

  /**
   * Whether a search arriving now finds fewer than ALWAYS_SERVED_SEARCHES in flight (running or
   * waiting). Then it is neither refused on arrival nor timed out: it starts once the few ahead of it
   * have (each running search is bounded by the request-path statement deadline; under a share every
   * window starts at least MIN_SEARCHES_PER_WINDOW), so a few clients searching at once are served
   * however slow the database or busy the process is for the moment. Counting the running searches
   * too keeps a flood's queue beyond them bounded by the wait.
   */
  private amongTheFew(): boolean {
    return this.running + this.waiting.length < ALWAYS_SERVED_SEARCHES;
  }

  private refuse(): ApiError {
    this.refused++;
    this.awaitedRetries.add(this.clock(), this.retryAfter);
    return searchRefused(this.retryAfter);
  }

  /**
   * Retry-After of a refusal: the seconds this process would take to start a search for every
   * searcher it knows of, i.e. the searches in flight plus the refused clients still waiting out
   * their Retry-After, over the searches started per second (both running averages over about a
   * second, so clients refused together and due together do not drop out of the count at once);
   * rounded up, from OVERLOAD_RETRY_AFTER_SECONDS to MAX_OVERLOAD_RETRY_AFTER_SECONDS.
   * Clients that wait as told then come back about as fast as searches start, so a flood of clients
   * is refused about once per search served (each refusal costs the process about a lookup).
   */
  private retryAfterSeconds(): number {
    const startedPerSecond = (this.startedPerWindow * 1000) / Math.max(1, this.windowMsAverage);
    if (this.searchers <= startedPerSecond) return OVERLOAD_RETRY_AFTER_SECONDS;
    if (startedPerSecond === 0) return MAX_OVERLOAD_RETRY_AFTER_SECONDS;
    return Math.min(MAX_OVERLOAD_RETRY_AFTER_SECONDS, Math.ceil(this.searchers / startedPerSecond));
  }

  private canStart(): boolean {
    return this.running < this.options.concurrency && this.started < this.budget;
  }

  private start(): SearchDone {
    this.started++;
    this.running++;
    const startedAt = this.clock();
    let finished = false;
    return () => {
      if (finished) return;
      finished = true;
      this.running--;
      const duration = this.clock() - startedAt;
      this.averageDurationMs = this.durationMeasured
        ? runningAverage(this.averageDurationMs, duration, DURATION_WEIGHT)
        : duration;
      this.durationMeasured = true;
      this.startWaiting();
    };
  }

  private startWaiting(): void {
    while (this.waiting.length > 0 && this.canStart()) {
      const next = this.waiting.shift()!;
      clearTimeout(next.timer);
      next.start(this.start());
    }
  }
}

/** An exponentially weighted running average moved by one new sample of the given weight. */
function runningAverage(average: number, sample: number, weight: number): number {
  return average + weight * (sample - average);
}

/**
 * Expected under overload: not logged one by one as a failure (`SearchAdmission` logs a count), and
 * counted in the metrics as any 500.
 */
function searchRefused(retryAfterSeconds: number): ApiError {
  return ApiError.uncharged(
    'INTERNAL_ERROR',
    'Too many searches are waiting; try again shortly.',
    overloadRefusalHeaders(retryAfterSeconds),
  );
}
