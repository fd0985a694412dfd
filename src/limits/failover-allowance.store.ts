import { Logger } from '@nestjs/common';
import type { AllowanceStore, CarriedWindow, Reservation, WindowState } from './allowance-store';
import { CircuitBreaker } from './circuit-breaker';
import { RedisAllowanceStore } from './redis-allowance.store';

const OUTAGE_LOG_INTERVAL_MS = 10_000;

/** The window a key was last counted in, by which store, and when it ends on this replica's clock. */
interface LastWindow {
  primary: boolean;
  total: number;
  endsAt: number;
}

/**
 * The minute's counter in Redis, PostgreSQL behind it: the first failed command opens the circuit. A
 * key's window moves with it between stores, so no failover restarts its minute (docs/limits.md).
 */
export class FailoverAllowanceStore implements AllowanceStore {
  private readonly logger = new Logger('Limits');
  private readonly primary: RedisAllowanceStore;
  private readonly circuit: CircuitBreaker;
  private readonly lastWindows = new Map<string, LastWindow>();
  private lastOutageLog = 0;

  constructor(
    redisUrl: string,
    private readonly fallback: AllowanceStore,
    private readonly clock: () => number = Date.now,
  ) {
    this.primary = new RedisAllowanceStore(redisUrl, (error) => this.reportOutage(error));
    this.circuit = new CircuitBreaker(
      () => this.primary.ping(),
      (open) =>
        open
          ? this.logger.warn('Redis is unavailable; counting per-minute limits in PostgreSQL')
          : this.logger.log('Redis answers again; counting per-minute limits in Redis'),
    );
  }

  /** Whether Redis is skipped now (the circuit is open) and the minute is counted in PostgreSQL. */
  get degraded(): boolean {
    return this.circuit.open;
  }

  async reserve(key: string, want: number, limit: number, ttlMs: number): Promise<Reservation> {
    if (!this.circuit.open) {
      try {
        return this.remember(
          key,
          true,
          await this.primary.reserve(key, want, limit, ttlMs, this.carried(key, true)),
        );
      } catch (error) {
        this.fail(error);
      }
    }
    return this.remember(
      key,
      false,
      await this.fallback.reserve(key, want, limit, ttlMs, this.carried(key, false)),
    );
  }

  async peek(key: string): Promise<WindowState | null> {
    if (!this.circuit.open) {
      try {
        return await this.primary.peek(key);
      } catch (error) {
        this.fail(error);
      }
    }
    return this.fallback.peek(key);
  }

  async close(): Promise<void> {
    this.circuit.stop();
    await this.fallback.close();
    await this.primary.close();
  }

  /** What the other store last counted for `key`, when its window is still open. */
  private carried(key: string, primary: boolean): CarriedWindow | undefined {
    const last = this.lastWindows.get(key);
    if (!last || last.primary === primary) return undefined;
    const msLeft = last.endsAt - this.clock();
    if (msLeft <= 0) {
      this.lastWindows.delete(key);
      return undefined;
    }
    return { total: last.total, msLeft };
  }

  private remember(key: string, primary: boolean, reservation: Reservation): Reservation {
    this.lastWindows.set(key, {
      primary,
      total: reservation.total,
      endsAt: this.clock() + reservation.msLeft,
    });
    return reservation;
  }

  private fail(error: unknown): void {
    this.reportOutage(error);
    this.circuit.recordFailure();
  }

  private reportOutage(error: unknown): void {
    if (Date.now() - this.lastOutageLog < OUTAGE_LOG_INTERVAL_MS) return;
    this.lastOutageLog = Date.now();
    this.logger.warn({ err: error }, 'A Redis command failed');
  }
}
