/**
 * Refusals whose Retry-After has not run out yet: clients that wait as told are away until then, and
 * will ask again. Counted per second of their due time (rounded), in a ring as long as the longest
 * Retry-After, so adding and counting cost a few array steps whatever the number of refusals.
 */
export class AwaitedRetries {
  private readonly dueSeconds: number[];
  private readonly counts: number[];

  constructor(longestRetryAfterSeconds: number) {
    const slots = longestRetryAfterSeconds + 2;
    this.dueSeconds = Array<number>(slots).fill(Number.NEGATIVE_INFINITY);
    this.counts = Array<number>(slots).fill(0);
  }

  /** A refusal at `nowMs` that told its client to ask again in `retryAfterSeconds`. */
  add(nowMs: number, retryAfterSeconds: number): void {
    const due = Math.round(nowMs / 1000 + retryAfterSeconds);
    const slot = due % this.counts.length;
    if (this.dueSeconds[slot] !== due) {
      this.dueSeconds[slot] = due;
      this.counts[slot] = 0;
    }
    this.counts[slot]++;
  }

  /** Refusals whose client is not due to ask again yet at `nowMs`. */
  pending(nowMs: number): number {
    const second = nowMs / 1000;
    let pending = 0;
    for (let slot = 0; slot < this.counts.length; slot++) {
      if (this.dueSeconds[slot] > second) pending += this.counts[slot];
    }
    return pending;
  }
}
