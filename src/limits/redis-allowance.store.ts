import { Logger } from '@nestjs/common';
import Redis from 'ioredis';
import type { AllowanceStore, Reservation, WindowState } from './allowance-store';

/** A Redis that answers slower than this counts as down for the request. */
const REDIS_COMMAND_TIMEOUT_MS = 500;
const OUTAGE_LOG_INTERVAL_MS = 10_000;
const KEY_PREFIX = 'catalog-api:limits:';

/**
 * The same step as the PostgreSQL store, on the Redis server's clock: a hash {window, reserved} that
 * expires with its window. Returns [granted, total, window, ms left].
 */
const RESERVE_SCRIPT = `
  local window = redis.call('HGET', KEYS[1], 'window')
  local reserved = 0
  if window then
    reserved = tonumber(redis.call('HGET', KEYS[1], 'reserved'))
  else
    local time = redis.call('TIME')
    window = time[1] .. '.' .. time[2]
    redis.call('HSET', KEYS[1], 'window', window, 'reserved', 0)
    redis.call('PEXPIRE', KEYS[1], ARGV[3])
  end
  local granted = math.max(0, math.min(tonumber(ARGV[1]), tonumber(ARGV[2]) - reserved))
  if granted > 0 then reserved = redis.call('HINCRBY', KEYS[1], 'reserved', granted) end
  return {granted, reserved, window, redis.call('PTTL', KEYS[1])}`;

/** [total, window, ms left] of the open window, or nil. */
const PEEK_SCRIPT = `
  local window = redis.call('HGET', KEYS[1], 'window')
  if not window then return false end
  return {tonumber(redis.call('HGET', KEYS[1], 'reserved')), window, redis.call('PTTL', KEYS[1])}`;

const RELEASE_SCRIPT = `
  if redis.call('HGET', KEYS[1], 'window') == ARGV[1] then
    if redis.call('HINCRBY', KEYS[1], 'reserved', -tonumber(ARGV[2])) < 0 then
      redis.call('HSET', KEYS[1], 'reserved', 0)
    end
  end
  return 0`;

/**
 * Optional (REDIS_URL): the minute's counters in Redis. While Redis is unreachable or slow, blocks
 * are reserved from the fallback (PostgreSQL) instead, so the service keeps answering and limiting;
 * in the minute Redis fails, a key's counts are split between the two stores, so it may get up to
 * twice its policy once.
 */
export class RedisAllowanceStore implements AllowanceStore {
  private readonly redis: Redis;
  private readonly logger = new Logger('Limits');
  private lastOutageLog = 0;

  constructor(
    redisUrl: string,
    private readonly fallback: AllowanceStore,
  ) {
    this.redis = new Redis(redisUrl, {
      maxRetriesPerRequest: 0,
      enableOfflineQueue: false,
      commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    });
    this.redis.on('error', (error) => this.reportOutage(error));
  }

  async reserve(key: string, want: number, limit: number, ttlMs: number): Promise<Reservation> {
    const redisKey = KEY_PREFIX + key;
    let reply: unknown;
    try {
      reply = await this.redis.eval(RESERVE_SCRIPT, 1, redisKey, want, limit, Math.ceil(ttlMs));
    } catch (error) {
      this.reportOutage(error);
      return this.fallback.reserve(key, want, limit, ttlMs);
    }
    const [granted, total, window, msLeft] = parseReply(reply);
    return {
      granted,
      total,
      window,
      msLeft,
      release: async (amount) => {
        await this.redis.eval(RELEASE_SCRIPT, 1, redisKey, window, amount);
      },
    };
  }

  async peek(key: string): Promise<WindowState | null> {
    let reply: unknown;
    try {
      reply = await this.redis.eval(PEEK_SCRIPT, 1, KEY_PREFIX + key);
    } catch (error) {
      this.reportOutage(error);
      return this.fallback.peek(key);
    }
    if (reply === null) return null;
    const [, total, window, msLeft] = parseReply([0, ...(Array.isArray(reply) ? reply : [])]);
    return { total, window, msLeft };
  }

  async close(): Promise<void> {
    await this.fallback.close();
    await this.redis.quit().catch(() => this.redis.disconnect());
  }

  private reportOutage(error: unknown): void {
    if (Date.now() - this.lastOutageLog < OUTAGE_LOG_INTERVAL_MS) return;
    this.lastOutageLog = Date.now();
    this.logger.warn({ err: error }, 'Redis is unavailable; counting per-minute limits in PostgreSQL');
  }
}

function parseReply(reply: unknown): [number, number, string, number] {
  if (!Array.isArray(reply) || reply.length !== 4) {
    throw new Error(`Unexpected reply from the Redis reservation script: ${JSON.stringify(reply)}`);
  }
  return [Number(reply[0]), Number(reply[1]), String(reply[2]), Number(reply[3])];
}
