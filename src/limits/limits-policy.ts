/**
 * How replicas reserve blocks of the shared counters; the limits themselves are limit-table.ts.
 * Block sizing (targetBlockMs, maxBlock, shareOfRemaining) and its reasons: docs/limits.md, reserved blocks.
 */
export const RESERVATION = {
  maxBlock: 20_000,
  shareOfRemaining: 0.25,
  /** A block is sized to last this long at the rate the last one was spent. */
  targetBlockMs: 4_000,
  /**
   * A rate is measured over at least this long, so a block of a few requests spent at once does not
   * size the next from a sample of a millisecond: a block grows at most targetBlockMs / this a step.
   */
  minRateSampleMs: 250,
  /**
   * A key whose last reservation is this recent when its window ends starts the next window at the
   * block size it had reached; its allowance is forgotten this long after its window ended.
   */
  busyKeyMs: 8_000,
  /** A window found exhausted is asked again after this long (another replica may return allowance). */
  exhaustedRecheckMs: 1_000,
  /** Allowance a replica has not touched for this long goes back to the window. */
  idleReleaseMs: 1_000,
  /** A hot key's next block is reserved when this share of its current one is left. */
  reserveAheadShare: 0.25,
  /** Blocks smaller than this (slow keys, or near the limit) are not reserved ahead. */
  reserveAheadMinBlock: 4,
} as const;

export interface ReservationDemand {
  limit: number;
  /** The window's reserved total as this replica last saw it (0 when unknown). */
  reserved: number;
  /** Requests of this replica waiting for allowance right now. */
  waiting: number;
  /** The size of this replica's previous reservation in the window (0 for none). */
  lastBlock: number;
  /** The size of its last reservation in the window before (0 for none). */
  previousWindowBlock: number;
  msSinceLastRefill: number;
  /** Requests spent here since the previous reservation was sent. */
  spentSinceLastRefill: number;
  /** From the previous reservation to the last request spent since (idle time after it excluded). */
  msSpendingSinceLastRefill: number;
}

export function reservationSize(demand: ReservationDemand): number {
  const { limit, reserved, waiting, lastBlock, previousWindowBlock, msSinceLastRefill } = demand;
  let wanted = 1;
  if (lastBlock > 0) {
    const sampleMs = Math.max(demand.msSpendingSinceLastRefill, RESERVATION.minRateSampleMs);
    wanted = Math.ceil((demand.spentSinceLastRefill / sampleMs) * RESERVATION.targetBlockMs);
  } else if (previousWindowBlock > 0 && msSinceLastRefill <= RESERVATION.busyKeyMs) {
    // A new window of a key that stayed busy: its size, rather than growing from 1 again.
    wanted = previousWindowBlock;
  }
  wanted = Math.max(wanted, waiting);
  const share = Math.ceil(Math.max(0, limit - reserved) * RESERVATION.shareOfRemaining);
  return Math.max(1, Math.min(wanted, share, RESERVATION.maxBlock));
}

/** Whether to reserve the next block now, while requests are still served from the current one. */
export function shouldReserveAhead(available: number, lastBlock: number): boolean {
  return (
    lastBlock >= RESERVATION.reserveAheadMinBlock && available <= lastBlock * RESERVATION.reserveAheadShare
  );
}
