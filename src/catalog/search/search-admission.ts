import { Logger } from '@nestjs/common';
import { performance } from 'node:perf_hooks';
import { ApiError } from '../../common/errors/api-error';

/**
 * A search that could not be answered within this long of its arrival (its wait for a turn and the
 * average search's duration) is refused on arrival.
 */
export const MAX_SEARCH_ANSWER_MS = 1_000;
/** The duration assumed until a search has finished here: small, so a fresh replica's burst is served. */
export const ASSUMED_SEARCH_DURATION_MS = 10;
/**
 * The duration the estimate uses is the mean of the last this many searches' durations: the mean is
 * what a queue drains at, and a window of equals lets one slow statement move it by a sixteenth. An
 * average weighted towards slow searches (half of each slower one) made a loaded replica's burst look
 * twice as slow as it was, and refused searches whose turn would have come within half a second.
 */
export const DURATION_WINDOW = 16;
/** At most one warning per this long counts the searches refused. */
export const REFUSAL_LOG_INTERVAL_MS = 10_000;

export interface SearchAdmissionOptions {
  /** Searches that may run at once (the search database's own concurrency); more wait their turn. */
  concurrency: number;
  maxAnswerMs?: number;
  /** Milliseconds from any fixed origin (default: the monotonic clock). */
  clock?: () => number;
}

/** Called once when an admitted search has finished, whatever its outcome. */
export type SearchDone = () => void;

interface WaitingSearch {
  arrivedAt: number;
  start: (done: SearchDone) => void;
  refuse: (refusal: ApiError) => void;
}

/**
 * At most `concurrency` searches run, the rest wait in order; one that could not be answered within
 * `maxAnswerMs` is refused on arrival, one still waiting after it too, at that deadline (500, logged
 * as a count). See docs/search.md, Search admission.
 */
export class SearchAdmission {
  private readonly logger = new Logger('SearchAdmission');
  private readonly concurrency: number;
  private readonly maxAnswerMs: number;
  private readonly clock: () => number;
  private running = 0;
  private readonly waiting: WaitingSearch[] = [];
  /** The last `DURATION_WINDOW` durations, oldest overwritten first; `averageDurationMs` is their mean. */
  private readonly durations: number[] = [];
  private nextDuration = 0;
  private averageDurationMs = ASSUMED_SEARCH_DURATION_MS;
  private refusedSinceLog = 0;
  private lastLogAt = Number.NEGATIVE_INFINITY;
  private refusedTotal = 0;
  /**
   * One timer, for the deadline of the oldest waiting search (`timedHead`): a waiting search is
   * refused at its deadline even when no search arrives or finishes to notice it.
   */
  private headTimer: NodeJS.Timeout | undefined;
  private timedHead: WaitingSearch | undefined;

  constructor(options: SearchAdmissionOptions) {
    this.concurrency = options.concurrency;
    this.maxAnswerMs = options.maxAnswerMs ?? MAX_SEARCH_ANSWER_MS;
    this.clock = options.clock ?? (() => performance.now());
  }

  get runningCount(): number {
    return this.running;
  }

  get waitingCount(): number {
    return this.waiting.length;
  }

  /** Searches refused since the process started (for /metrics). */
  get refusedCount(): number {
    return this.refusedTotal;
  }

  /**
   * The search may start when this returns (or its promise resolves): call the `SearchDone` it gives
   * when the search has finished. Throws (or, rarely, rejects with) the refusal.
   */
  admit(): Promise<SearchDone> | SearchDone {
    this.refuseOverdue();
    if (this.waiting.length === 0 && this.running < this.concurrency) return this.start();
    if (this.estimatedAnswerMs() > this.maxAnswerMs) throw this.refusal();
    return new Promise<SearchDone>((start, refuse) => {
      this.waiting.push({ arrivedAt: this.clock(), start, refuse });
      this.timeHead();
    });
  }

  /** How long a search arriving now would take to be answered: its wait for a free slot, then its run. */
  private estimatedAnswerMs(): number {
    const mustFinish = this.running + this.waiting.length - this.concurrency + 1;
    return (mustFinish * this.averageDurationMs) / this.concurrency + this.averageDurationMs;
  }

  private start(): SearchDone {
    this.running++;
    const startedAt = this.clock();
    let finished = false;
    return () => {
      if (finished) return;
      finished = true;
      this.running--;
      this.recordDuration(this.clock() - startedAt);
      this.refuseOverdue();
      while (this.waiting.length > 0 && this.running < this.concurrency) {
        this.waiting.shift()!.start(this.start());
      }
      this.timeHead();
    };
  }

  private recordDuration(duration: number): void {
    this.durations[this.nextDuration] = duration;
    this.nextDuration = (this.nextDuration + 1) % DURATION_WINDOW;
    let total = 0;
    for (const each of this.durations) total += each;
    this.averageDurationMs = total / this.durations.length;
  }

  /** Refuses the waiting searches that could not start within the bound (the oldest first). */
  private refuseOverdue(): void {
    const latestArrival = this.clock() - this.maxAnswerMs;
    while (this.waiting.length > 0 && this.waiting[0].arrivedAt <= latestArrival) {
      this.waiting.shift()!.refuse(this.refusal());
    }
    this.timeHead();
  }

  /**
   * Keeps the timer on the oldest waiting search's deadline: re-armed when another search becomes
   * the oldest, cleared when none waits. Unref'd: a waiting search does not hold the process up.
   */
  private timeHead(): void {
    const head = this.waiting[0];
    if (head === this.timedHead) return;
    clearTimeout(this.headTimer);
    this.headTimer = undefined;
    this.timedHead = head;
    if (head === undefined) return;
    const delay = Math.max(0, Math.ceil(head.arrivedAt + this.maxAnswerMs - this.clock()));
    this.headTimer = setTimeout(() => {
      // Forgotten first: a timer that fired a little early (timers and the clock round differently)
      // is armed again for the same search.
      this.timedHead = undefined;
      this.headTimer = undefined;
      this.refuseOverdue();
    }, delay);
    this.headTimer.unref();
  }

  private refusal(): ApiError {
    this.refusedTotal++;
    this.refusedSinceLog++;
    const now = this.clock();
    if (now - this.lastLogAt >= REFUSAL_LOG_INTERVAL_MS) {
      this.logger.warn(
        { refused: this.refusedSinceLog },
        'Searches refused: the replica could not answer them in time',
      );
      this.refusedSinceLog = 0;
      this.lastLogAt = now;
    }
    return ApiError.expected(
      'INTERNAL_ERROR',
      'Too many searches are waiting on this server; try again shortly.',
    );
  }
}
