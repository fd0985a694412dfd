import type { OnModuleDestroy } from '@nestjs/common';
import { secondsLeftInMinute, secondsUntilNextUtcMonth } from './month';
import type { UsageRecord, UsageStorage } from './usage-storage';
import { decodeUsageKey } from './usage-storage';
import type { RequestUsage, UsageRepository } from './usage.repository';

/** How often each replica clears finished minute windows. */
const CLEANUP_INTERVAL_MS = 60_000;
/** RATE_LIMITED always says 60 (the contract's Retry-After for the per-minute limit). */
export const RATE_LIMIT_RETRY_AFTER_SECONDS = 60;

/**
 * The default storage: per-minute windows (fixed calendar minutes) and the monthly quota in
 * PostgreSQL, counted together in one statement, so the limits hold across every replica.
 */
export class PostgresThrottlerStorage implements UsageStorage, OnModuleDestroy {
  private readonly cleanup = setInterval(() => {
    this.usage.deleteExpiredWindows().catch(() => undefined);
  }, CLEANUP_INTERVAL_MS).unref();

  constructor(private readonly usage: UsageRepository) {}

  async increment(key: string, _ttl: number, limit: number): Promise<UsageRecord> {
    const { keyId, monthlyQuota } = decodeUsageKey(key);
    const usage = await this.usage.recordRequest(keyId, limit, monthlyQuota);
    return usageRecord(usage.minuteHits, limit, secondsLeftInMinute(usage.now), usage);
  }

  onModuleDestroy(): void {
    clearInterval(this.cleanup);
  }
}

/** The throttler record for a minute count, with the quota outcome when the minute allowed it. */
export function usageRecord(
  minuteHits: number,
  limit: number,
  secondsLeft: number,
  quota: Pick<RequestUsage, 'quotaUsed' | 'now'> | null,
): UsageRecord {
  const isBlocked = minuteHits > limit;
  return {
    totalHits: minuteHits,
    timeToExpire: secondsLeft,
    isBlocked,
    timeToBlockExpire: isBlocked ? RATE_LIMIT_RETRY_AFTER_SECONDS : 0,
    quota:
      isBlocked || !quota
        ? null
        : { exceeded: quota.quotaUsed === null, retryAfterSeconds: secondsUntilNextUtcMonth(quota.now) },
  };
}
