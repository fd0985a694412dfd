import type { OnModuleDestroy } from '@nestjs/common';
import Redis from 'ioredis';
import { usageRecord } from './postgres-throttler.storage';
import type { UsageRecord, UsageStorage } from './usage-storage';
import { decodeUsageKey } from './usage-storage';
import type { UsageRepository } from './usage.repository';

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
 */
export class RedisThrottlerStorage implements UsageStorage, OnModuleDestroy {
  private readonly redis: Redis;

  constructor(
    redisUrl: string,
    private readonly usage: UsageRepository,
  ) {
    this.redis = new Redis(redisUrl, {
      maxRetriesPerRequest: 1,
      enableOfflineQueue: true,
      lazyConnect: false,
    });
    this.redis.defineCommand('countMinute', { numberOfKeys: 1, lua: COUNT_MINUTE_SCRIPT });
  }

  async increment(key: string, _ttl: number, limit: number): Promise<UsageRecord> {
    const { keyId, monthlyQuota } = decodeUsageKey(key);
    const [hits, secondInMinute] = (await (
      this.redis as Redis & { countMinute(key: string): Promise<[number, number]> }
    ).countMinute(`catalog-api:rpm:${keyId}`)) as [number, number];
    const secondsLeft = 60 - secondInMinute;
    if (hits > limit) return usageRecord(hits, limit, secondsLeft, null);
    return usageRecord(hits, limit, secondsLeft, await this.usage.recordQuotaUse(keyId, monthlyQuota));
  }

  async onModuleDestroy(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
