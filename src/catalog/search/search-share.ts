import { ApiError } from '../../common/errors/api-error';

/** The share of a saturated process's requests that searches may take while other requests wait. */
export const SEARCH_SHARE = 0.05;
/** Event-loop utilization over one window from which the process counts as saturated. */
export const SATURATED_UTILIZATION = 0.9;
/** Searches that may always start per window, whatever the other traffic. */
export const MIN_SEARCHES_PER_WINDOW = 5;
/** How long a search may wait for its turn before it is answered 500. */
export const MAX_SEARCH_WAIT_MS = 2_000;
/** Searches that may wait at once; more are answered 500 at once. */
export const MAX_WAITING_SEARCHES = 1_000;

/** What the process did over one window (see `SearchAdmission`). */
export interface WindowLoad {
  /** Event-loop utilization, 0 to 1. */
  utilization: number;
  /** HTTP requests that arrived, searches included. */
  requests: number;
}

/**
 * Searches take a bounded share of a saturated process. Over each window the process counts its
 * requests; when the window ends with the event loop saturated and requests other than searches
 * arrived, searches may start in the next window at most SEARCH_SHARE of all requests (SEARCH_SHARE
 * / (1 − SEARCH_SHARE) per other request, never fewer than MIN_SEARCHES_PER_WINDOW). The others
 * wait their turn in arrival order. Clients that wait for an answer before asking again then send
 * fewer searches, so lookups, lists, /health and the limits keep most of the process. Otherwise
 * (idle process, or searches alone) searches start at once. A search that cannot start within
 * MAX_SEARCH_WAIT_MS, or finds MAX_WAITING_SEARCHES waiting, is answered 500 INTERNAL_ERROR.
 */
export class SearchShare {
  private budget = Number.POSITIVE_INFINITY;
  private started = 0;
  private searchesArrived = 0;
  private readonly waiting: Array<{ start: () => void; timer: NodeJS.Timeout }> = [];

  get waitingCount(): number {
    return this.waiting.length;
  }

  /** Resolves when the search may start; rejects with the 500 when it cannot start in time. */
  admit(): Promise<void> | void {
    this.searchesArrived++;
    if (this.waiting.length === 0 && this.started < this.budget) {
      this.started++;
      return;
    }
    if (this.waiting.length >= MAX_WAITING_SEARCHES) throw tooBusy();
    return new Promise<void>((resolve, reject) => {
      const entry = {
        start: resolve,
        timer: setTimeout(() => {
          this.waiting.splice(this.waiting.indexOf(entry), 1);
          reject(tooBusy());
        }, MAX_SEARCH_WAIT_MS),
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
    while (this.waiting.length > 0 && this.started < this.budget) {
      const next = this.waiting.shift()!;
      clearTimeout(next.timer);
      this.started++;
      next.start();
    }
  }
}

function tooBusy(): ApiError {
  return new ApiError('INTERNAL_ERROR', 'Too many searches are waiting; try again shortly.');
}
