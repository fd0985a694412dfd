import { Logger, type OnModuleDestroy } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import type { AllowanceStore } from './allowance-store';
import { FailoverAllowanceStore } from './failover-allowance.store';
import type { CountedWindow } from './limit-usage';
import { RESERVATION, reservationSize, shouldReserveAhead } from './limits-policy';

/** The record a ThrottlerStorage returns (the package exports only the interface's name as a type). */
type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/** This replica's share of one counter's current window. */
interface Allowance {
  window: string | null;
  release: ((amount: number) => Promise<void>) | null;
  /** When the window ends on this replica's clock (measured from when the reservation was sent). */
  endsAt: number;
  /** Reserved here and not spent yet. */
  available: number;
  /** Spent here in this window (and not refunded). */
  spent: number;
  /** The window's reserved total at this replica's last reservation. */
  total: number;
  lastBlock: number;
  /** The last block of the window before, where a busy key's first block of a window starts. */
  previousWindowBlock: number;
  lastRefillAt: number;
  /** `spent` when the last reservation was sent: what was spent since measures the key's rate. */
  spentAtLastRefill: number;
  lastSpentAt: number;
  /** Until then the window counts as exhausted without asking the store again. */
  exhaustedUntil: number;
  waiting: number;
  refill: Promise<void> | null;
}

const SWEEP_INTERVAL_MS = 1_000;

/**
 * The throttlers' storage: spends blocks reserved from each limit's shared store in memory, exact
 * across replicas, one reservation per counter at a time (docs/limits.md, reserved blocks).
 */
export class ReplicaAllowances implements ThrottlerStorage, OnModuleDestroy {
  private readonly logger = new Logger('Limits');
  private readonly allowances = new Map<string, Allowance>();
  private readonly sweeper = setInterval(() => this.releaseIdle(), SWEEP_INTERVAL_MS).unref();

  constructor(
    private readonly stores: Readonly<Record<string, AllowanceStore>>,
    private readonly clock: () => number = Date.now,
  ) {}

  /**
   * Whether the optional Redis in front of a counter is unavailable (the service still serves, the
   * counters in PostgreSQL); null when no counter uses Redis (REDIS_URL unset).
   */
  redisDegraded(): boolean | null {
    const redis = Object.values(this.stores).filter((store) => store instanceof FailoverAllowanceStore);
    return redis.length === 0 ? null : redis.some((store) => store.degraded);
  }

  async increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): Promise<ThrottlerStorageRecord> {
    const store = this.storeFor(throttlerName);
    const allowance = this.allowanceOf(key);
    for (;;) {
      const now = this.clock();
      if (allowance.endsAt <= now && !allowance.refill) this.startOver(allowance);
      if (allowance.available > 0) {
        allowance.available--;
        allowance.spent++;
        allowance.lastSpentAt = now;
        if (!allowance.refill && shouldReserveAhead(allowance.available, allowance.lastBlock)) {
          // Reserve the next block before this one runs out, so hot keys rarely wait for it. A
          // failure here is not this request's: the next one that needs the block sees it.
          allowance.refill = this.refill(allowance, store, key, ttl, limit);
          allowance.refill.catch(() => undefined);
        }
        return {
          totalHits: allowance.total - allowance.available,
          timeToExpire: secondsLeft(allowance.endsAt, now),
          isBlocked: false,
          timeToBlockExpire: 0,
        };
      }
      if (allowance.exhaustedUntil > now) {
        return {
          totalHits: Math.max(limit, allowance.total) + 1,
          timeToExpire: secondsLeft(allowance.endsAt, now),
          isBlocked: true,
          timeToBlockExpire: secondsLeft(Math.min(allowance.endsAt, now + blockDuration), now),
        };
      }
      allowance.waiting++;
      try {
        await (allowance.refill ??= this.refill(allowance, store, key, ttl, limit));
      } finally {
        allowance.waiting--;
      }
    }
  }

  /**
   * A counter's open window as this replica knows it, without I/O: what was reserved by every
   * replica at its last reservation, minus what it still holds. Null when it knows of no window.
   */
  localWindow(key: string): CountedWindow | null {
    const allowance = this.allowances.get(key);
    const now = this.clock();
    if (!allowance || allowance.window === null || allowance.endsAt <= now) return null;
    return { used: Math.max(0, allowance.total - allowance.available), msLeft: allowance.endsAt - now };
  }

  /**
   * A counter's open window as the shared store holds it now, minus what this replica holds
   * unspent. Blocks other replicas hold unspent count as used (at most one block each).
   */
  async countedWindow(key: string, throttlerName: string): Promise<CountedWindow | null> {
    const state = await this.storeFor(throttlerName).peek(key);
    if (!state) return null;
    const allowance = this.allowances.get(key);
    const held = allowance?.window === state.window ? allowance.available : 0;
    return { used: Math.max(0, state.total - held), msLeft: state.msLeft };
  }

  /** Gives every unspent block back (shutdown), then closes the stores. */
  async onModuleDestroy(): Promise<void> {
    clearInterval(this.sweeper);
    await Promise.all([...this.allowances.values()].map((allowance) => this.giveBack(allowance)));
    await Promise.all(Object.values(this.stores).map((store) => store.close()));
  }

  private storeFor(throttlerName: string): AllowanceStore {
    const store = this.stores[throttlerName];
    if (!store) throw new Error(`No allowance store for the "${throttlerName}" throttler`);
    return store;
  }

  private allowanceOf(key: string): Allowance {
    let allowance = this.allowances.get(key);
    if (!allowance) {
      allowance = {
        window: null,
        release: null,
        endsAt: 0,
        available: 0,
        spent: 0,
        total: 0,
        lastBlock: 0,
        previousWindowBlock: 0,
        lastRefillAt: 0,
        spentAtLastRefill: 0,
        lastSpentAt: 0,
        exhaustedUntil: 0,
        waiting: 0,
        refill: null,
      };
      this.allowances.set(key, allowance);
    }
    return allowance;
  }

  /** The window has ended here: what was left of it is gone with it. */
  private startOver(allowance: Allowance): void {
    Object.assign(allowance, {
      window: null,
      release: null,
      endsAt: Number.POSITIVE_INFINITY,
      available: 0,
      spent: 0,
      spentAtLastRefill: 0,
      total: 0,
      lastBlock: 0,
      previousWindowBlock: allowance.lastBlock || allowance.previousWindowBlock,
      exhaustedUntil: 0,
    });
  }

  private refill(allowance: Allowance, store: AllowanceStore, key: string, ttl: number, limit: number) {
    const work = async () => {
      const sentAt = this.clock();
      const spentAtSend = allowance.spent;
      const want = reservationSize({
        limit,
        reserved: allowance.total,
        waiting: allowance.waiting,
        lastBlock: allowance.lastBlock,
        previousWindowBlock: allowance.previousWindowBlock,
        msSinceLastRefill: sentAt - allowance.lastRefillAt,
        spentSinceLastRefill: spentAtSend - allowance.spentAtLastRefill,
        msSpendingSinceLastRefill: allowance.lastSpentAt - allowance.lastRefillAt,
      });
      const reservation = await store.reserve(key, want, limit, ttl);
      if (reservation.window !== allowance.window) {
        // The shared counter started a new window: whatever was held belonged to the old one.
        allowance.available = 0;
        allowance.spent = 0;
        allowance.window = reservation.window;
      }
      allowance.spentAtLastRefill = Math.min(spentAtSend, allowance.spent);
      allowance.release = reservation.release;
      allowance.available += reservation.granted;
      allowance.total = reservation.total;
      allowance.endsAt = sentAt + reservation.msLeft;
      allowance.lastBlock = want;
      allowance.lastRefillAt = sentAt;
      allowance.exhaustedUntil =
        reservation.granted === 0 ? Math.min(allowance.endsAt, sentAt + RESERVATION.exhaustedRecheckMs) : 0;
    };
    return work().finally(() => {
      allowance.refill = null;
    });
  }

  /** Allowance nobody here is using goes back, so another replica with demand can have it. */
  private releaseIdle(): void {
    const now = this.clock();
    for (const [key, allowance] of this.allowances) {
      if (allowance.refill || allowance.waiting > 0) continue;
      if (allowance.endsAt <= now - RESERVATION.busyKeyMs) {
        // Kept a while past its end, so a key still busy starts its next window with its block size.
        this.allowances.delete(key);
      } else if (allowance.endsAt <= now) {
        continue;
      } else if (
        allowance.available > 0 &&
        now - Math.max(allowance.lastSpentAt, allowance.lastRefillAt) >= RESERVATION.idleReleaseMs
      ) {
        void this.giveBack(allowance);
      }
    }
  }

  private async giveBack(allowance: Allowance): Promise<void> {
    const amount = allowance.available;
    if (amount <= 0 || !allowance.release) return;
    allowance.available = 0;
    try {
      await allowance.release(amount);
    } catch (error) {
      // The block stays counted: usage is over-counted by it, never under-counted.
      this.logger.warn({ err: error }, 'Could not return unused allowance');
    }
  }
}

function secondsLeft(until: number, now: number): number {
  return Math.max(1, Math.ceil((until - now) / 1000));
}
