import { ApiError } from '../../common/errors/api-error';

/** The share of a saturated process's requests that searches may take while other requests wait. */
export const SEARCH_SHARE = 0.05;
/** Event-loop utilization over one window from which the process counts as saturated. */
export const SATURATED_UTILIZATION = 0.9;
/** Searches that may always start per window, whatever the other traffic. */
export const MIN_SEARCHES_PER_WINDOW = 5;
/**
 * How long a search may wait for its turn. One whose turn cannot come within it (by the estimate
 * below) is refused on arrival; one still waiting when it ends is refused then.
 */
export const MAX_SEARCH_WAIT_MS = 150;
/** Searches that may wait at once; more are refused at once. */
export const MAX_WAITING_SEARCHES = 1_000;
/** What a refused search is told to wait before asking again (`Retry-After`, whole seconds). */
export const SEARCH_RETRY_AFTER_SECONDS = 1;
/** Weight of the newest duration in the running average of search durations. */
const DURATION_WEIGHT = 0.2;
/** How long an admitted search should take from arrival to answer: its wait and its statements. */
export const SEARCH_LATENCY_TARGET_MS = 250;
/**
 * How long an admitted search should take in the database: what is left of the latency target after
 * the longest wait. A search slower than this lowers the concurrency limit (see `SearchShare`).
 */
export const SEARCH_DURATION_TARGET_MS = SEARCH_LATENCY_TARGET_MS - MAX_SEARCH_WAIT_MS;
/** The factor a slow search applies to the concurrency limit, at most once per round of searches. */
const LIMIT_DECREASE = 0.5;

/** What the process did over one window (see `SearchAdmission`). */
export interface WindowLoad {
  /** Event-loop utilization, 0 to 1. */
  utilization: number;
  /** HTTP requests that arrived, searches included. */
  requests: number;
}

export interface SearchShareOptions {
  /**
   * The most searches that may ever run at once (the search database's own concurrency); the
   * adaptive limit stays between 1 and this.
   */
  concurrency: number;
  /** The length of the windows `endWindow` closes. */
  windowMs: number;
  maxWaitMs?: number;
  maxWaiting?: number;
  durationTargetMs?: number;
  clock?: () => number;
}

/** Called once when an admitted search has finished, whatever its outcome. */
export type SearchDone = () => void;

interface WaitingSearch {
  start: (done: SearchDone) => void;
  timer: NodeJS.Timeout;
}

/**
 * Searches are admitted by two bounds, and wait in one arrival-order queue with a bounded wait.
 *
 * - Adaptive concurrency: at most `limit` searches run at once. The limit starts at `concurrency`
 *   (the search database's own: its pool size, or the embedded database's limit), so an admitted
 *   search never queues again for a connection. Searches running at once share the machine's cores,
 *   so each takes longer the more run: a search that takes longer than `durationTargetMs` halves
 *   the limit (at most once per round, i.e. once the searches running at that moment have had time
 *   to finish; never below 1), and a search within the target while the limit was in use (full, or
 *   searches waiting) raises it by 1/limit (one whole step per round, never above `concurrency`). The limit thus settles where
 *   searches take about the target, unless even one at a time is slower.
 * - Share of a saturated process: over each window the process counts its requests; when the window
 *   ends with the event loop saturated and requests other than searches arrived, searches may start
 *   in the next window at most SEARCH_SHARE of all requests (SEARCH_SHARE / (1 − SEARCH_SHARE) per
 *   other request, never fewer than MIN_SEARCHES_PER_WINDOW), so lookups, lists, /health and the
 *   limits keep most of the process. Otherwise (idle process, or searches alone) the window sets no
 *   bound.
 *
 * Bounded queue wait: a search that arrives when it cannot start waits at most `maxWaitMs`. On
 * arrival its wait is estimated from its place in the queue: the running average of search durations
 * × the searches that must finish first / the concurrency limit, and the windows its share needs; when
 * the estimate exceeds `maxWaitMs`, or with the average duration exceeds SEARCH_LATENCY_TARGET_MS
 * (slow searches leave less room to wait), or `maxWaiting` already wait, it is refused at once. A waiting
 * search not started by `maxWaitMs` is refused then. A refusal is 500 INTERNAL_ERROR with
 * `Retry-After`, flagged as not charged to the monthly quota (see `ApiError.uncharged`) and as
 * expected (not logged one by one).
 */
export class SearchShare {
  private budget = Number.POSITIVE_INFINITY;
  private started = 0;
  private searchesArrived = 0;
  private running = 0;
  private refused = 0;
  /**
   * Until a search has finished, the estimate assumes the duration target: a cold process flooded
   * with searches then refuses on arrival what it could not start in time, instead of queueing every
   * one of them on an estimate of zero and refusing them only when their wait runs out.
   */
  private averageDurationMs: number;
  private durationMeasured = false;
  private limit: number;
  private lastDecreaseAt = Number.NEGATIVE_INFINITY;
  private windowEndsAt: number;
  private readonly waiting: WaitingSearch[] = [];
  private readonly maxWaitMs: number;
  private readonly maxWaiting: number;
  private readonly durationTargetMs: number;
  private readonly clock: () => number;

  constructor(private readonly options: SearchShareOptions) {
    this.maxWaitMs = options.maxWaitMs ?? MAX_SEARCH_WAIT_MS;
    this.maxWaiting = options.maxWaiting ?? MAX_WAITING_SEARCHES;
    this.durationTargetMs = options.durationTargetMs ?? SEARCH_DURATION_TARGET_MS;
    this.averageDurationMs = Number.isFinite(this.durationTargetMs)
      ? this.durationTargetMs
      : SEARCH_DURATION_TARGET_MS;
    this.limit = options.concurrency;
    this.clock = options.clock ?? Date.now;
    this.windowEndsAt = this.clock() + options.windowMs;
  }

  get waitingCount(): number {
    return this.waiting.length;
  }

  get runningCount(): number {
    return this.running;
  }

  /** Searches that may run at once now (the adaptive limit, whole). */
  get concurrencyLimit(): number {
    return Math.floor(this.limit);
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
    const waitMs = this.estimatedWaitMs();
    if (
      this.waiting.length >= this.maxWaiting ||
      waitMs > this.maxWaitMs ||
      waitMs + this.averageDurationMs > SEARCH_LATENCY_TARGET_MS
    ) {
      throw this.refuse();
    }
    return new Promise<SearchDone>((resolve, reject) => {
      const entry: WaitingSearch = {
        start: resolve,
        timer: setTimeout(() => {
          this.waiting.splice(this.waiting.indexOf(entry), 1);
          reject(this.refuse());
        }, this.maxWaitMs),
      };
      this.waiting.push(entry);
    });
  }

  /** Ends a window: sets the next window's budget and starts the searches it allows. */
  endWindow(load: WindowLoad): void {
    const others = load.requests - this.searchesArrived;
    this.budget =
      load.utilization >= SATURATED_UTILIZATION && others > 0
        ? Math.max(MIN_SEARCHES_PER_WINDOW, Math.floor((others * SEARCH_SHARE) / (1 - SEARCH_SHARE)))
        : Number.POSITIVE_INFINITY;
    this.started = 0;
    this.searchesArrived = 0;
    this.windowEndsAt = this.clock() + this.options.windowMs;
    this.startWaiting();
  }

  /**
   * How long a search arriving now would wait: until `concurrency` slots have freed for the running
   * and waiting searches ahead of it, and until a window has budget left for it.
   */
  private estimatedWaitMs(): number {
    const { windowMs } = this.options;
    const concurrency = this.concurrencyLimit;
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

  private refuse(): ApiError {
    this.refused++;
    return searchRefused();
  }

  private canStart(): boolean {
    return this.running < this.concurrencyLimit && this.started < this.budget;
  }

  private start(): SearchDone {
    this.started++;
    this.running++;
    const startedAt = this.clock();
    let finished = false;
    return () => {
      if (finished) return;
      finished = true;
      const limitInUse = this.running >= this.concurrencyLimit || this.waiting.length > 0;
      this.running--;
      const finishedAt = this.clock();
      const duration = finishedAt - startedAt;
      this.averageDurationMs = this.durationMeasured
        ? this.averageDurationMs + DURATION_WEIGHT * (duration - this.averageDurationMs)
        : duration;
      this.durationMeasured = true;
      this.adaptLimit(duration, startedAt, finishedAt, limitInUse);
      this.startWaiting();
    };
  }

  /**
   * A slow search halves the limit, unless it started before the last decrease (it ran under the
   * old limit, so it says nothing of the new one). A search within the target raises the limit by
   * 1/limit when the limit was in use: as many running as it allows, or searches waiting (when it
   * was not, the speed says nothing of the limit).
   */
  private adaptLimit(durationMs: number, startedAt: number, finishedAt: number, limitInUse: boolean): void {
    const { concurrency } = this.options;
    if (durationMs > this.durationTargetMs) {
      if (startedAt < this.lastDecreaseAt) return;
      this.limit = Math.max(1, this.limit * LIMIT_DECREASE);
      this.lastDecreaseAt = finishedAt;
    } else if (limitInUse) {
      this.limit = Math.min(concurrency, this.limit + 1 / this.limit);
    }
  }

  private startWaiting(): void {
    while (this.waiting.length > 0 && this.canStart()) {
      const next = this.waiting.shift()!;
      clearTimeout(next.timer);
      next.start(this.start());
    }
  }
}

/**
 * Expected under overload: not logged one by one as a failure (`SearchAdmission` logs a count), and
 * counted in the metrics as any 500.
 */
function searchRefused(): ApiError {
  return ApiError.uncharged('INTERNAL_ERROR', 'Too many searches are waiting; try again shortly.', {
    'Retry-After': String(SEARCH_RETRY_AFTER_SECONDS),
  });
}
