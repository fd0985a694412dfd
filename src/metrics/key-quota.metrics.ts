import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { Gauge, Registry } from 'prom-client';
import { Database } from '../database/database';
import { quotaCounts } from '../limits/quota-standing';

/** How often each process counts the keys near or out of their monthly quota: one statement each time. */
export const KEY_QUOTA_READ_INTERVAL_MS = 30_000;

/**
 * Usable keys (enabled, not expired) that have used at least 80% and at least 100% of their monthly
 * quota this UTC month. One statement every 30 s per process (started with the module), never one
 * per request or per scrape: a scrape reads the last count. No per-key label: every process reports
 * the same counts, and `keys:list` shows which keys. NaN until the first read, and while reads fail.
 */
@Injectable()
export class KeyQuotaMetrics implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('Metrics');
  private readonly nearlyUsed: Gauge;
  private readonly usedUp: Gauge;
  private timer: NodeJS.Timeout | undefined;
  private reading: Promise<void> | null = null;
  private failing = false;

  constructor(
    registry: Registry,
    private readonly db: Database,
  ) {
    this.nearlyUsed = new Gauge({
      name: 'api_keys_monthly_quota_nearly_used',
      help: 'API keys, enabled and not expired, that have used at least 80% of their monthly quota this UTC month',
      registers: [registry],
    });
    this.usedUp = new Gauge({
      name: 'api_keys_monthly_quota_used_up',
      help: 'API keys, enabled and not expired, that have used all of their monthly quota this UTC month',
      registers: [registry],
    });
    this.nearlyUsed.set(Number.NaN);
    this.usedUp.set(Number.NaN);
  }

  onModuleInit(): void {
    void this.refresh();
    this.timer = setInterval(() => void this.refresh(), KEY_QUOTA_READ_INTERVAL_MS).unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  /** Counts now (one statement; a call during a read joins it); never throws. */
  refresh(): Promise<void> {
    return (this.reading ??= this.read().finally(() => (this.reading = null)));
  }

  private async read(): Promise<void> {
    try {
      const counts = await quotaCounts((sql, params) => this.db.query(sql, params));
      this.nearlyUsed.set(counts.nearlyUsed);
      this.usedUp.set(counts.usedUp);
      if (this.failing) this.logger.log('The keys near their monthly quota are counted again');
      this.failing = false;
    } catch (error) {
      this.nearlyUsed.set(Number.NaN);
      this.usedUp.set(Number.NaN);
      // Once per outage: a read every 30 s would repeat it.
      if (!this.failing)
        this.logger.warn({ err: error }, 'Could not count the keys near their monthly quota');
      this.failing = true;
    }
  }
}
