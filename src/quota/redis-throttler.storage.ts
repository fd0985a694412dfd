import { Logger, type OnModuleDestroy } from '@nestjs/common';
import Redis from 'ioredis';
import { type PostgresThrottlerStorage, usageRecord } from './postgres-throttler.storage';
import type { UsageRecord, UsageStorage } from './usage-storage';
import { decodeUsageKey } from './usage-storage';
import type { UsageRepository } from './usage.repository';

/** A Redis that answers slower than this counts as down for the request. */
const REDIS_COMMAND_TIMEOUT_MS = 500;
const OUTAGE_LOG_INTERVAL_MS = 10_000;

/**
 * Counts the calendar minute on the Redis server's clock (one script call: INCR and an expiry), so
 * replicas agree on the window; returns [hits, seconds elapsed in the minute].
 */
const COUNT_MINUTE_SCRIPT = `
  local seconds = tonumber(redis.call('TIME')[1])
  local key = KEYS[1] .. ':' .. math.floor(seconds / 60)
  local hits = redis.call('INCR', key)
  if hits == 1 then redis.call('EXPIRE', key, 120) end
  return {hits, seconds % 60}`;

/**
 * Optional (REDIS_URL): per-minute counters in Redis; the monthly quota stays in PostgreSQL, where it
 * is durable. Costs two round trips (Redis, then PostgreSQL) for a request within its minute.
 * While Redis is unreachable or slow, requests are counted by the PostgreSQL storage instead, so the
 * service keeps answering and the limits keep holding (in the minute Redis fails, a key's counts are
 * split between the two stores, so it may get up to twice its policy once).
 */
export class RedisThrottlerStorage implements UsageStorage, OnModuleDestroy {
  private readonly redis: Redis;
  private readonly logger = new Logger('RedisThrottlerStorage');
  private lastOutageLog = 0;

  constructor(
    redisUrl: string,
    private readonly usage: UsageRepository,
    private readonly fallback: PostgresThrottlerStorage,
  ) {
    this.redis = new Redis(redisUrl, {
      maxRetriesPerRequest: 0,
      enableOfflineQueue: false,
      commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    });
    this.redis.on('error', (error) => this.reportOutage(error));
    this.redis.defineCommand('countMinute', { numberOfKeys: 1, lua: COUNT_MINUTE_SCRIPT });
  }

  async increment(key: string, ttl: number, limit: number): Promise<UsageRecord> {
    const { keyId, monthlyQuota } = decodeUsageKey(key);
    let counted: [number, number];
    try {
      counted = await (
        this.redis as Redis & { countMinute(key: string): Promise<[number, number]> }
      ).countMinute(`catalog-api:rpm:${keyId}`);
    } catch (error) {
      this.reportOutage(error);
      return this.fallback.increment(key, ttl, limit);
    }
    const [hits, secondInMinute] = counted;
    const secondsLeft = 60 - secondInMinute;
    if (hits > limit) return usageRecord(hits, limit, secondsLeft, null);
    return usageRecord(hits, limit, secondsLeft, await this.usage.recordQuotaUse(keyId, monthlyQuota));
  }

  async onModuleDestroy(): Promise<void> {
    this.fallback.onModuleDestroy();
    await this.redis.quit().catch(() => this.redis.disconnect());
  }

  private reportOutage(error: unknown): void {
    if (Date.now() - this.lastOutageLog < OUTAGE_LOG_INTERVAL_MS) return;
    this.lastOutageLog = Date.now();
    this.logger.warn({ err: error }, 'Redis is unavailable; counting per-minute limits in PostgreSQL');
  }
}
