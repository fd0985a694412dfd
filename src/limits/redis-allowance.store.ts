import Redis from 'ioredis';
import type { AllowanceStore, CarriedWindow, Reservation, WindowState } from './allowance-store';

/** A Redis that answers slower than this counts as down for the command. */
const REDIS_COMMAND_TIMEOUT_MS = 500;
/** The longest wait between reconnection attempts, so a restarted Redis is back within a second. */
const RECONNECT_MAX_DELAY_MS = 250;
const KEY_PREFIX = 'catalog-api:limits:';

/**
 * The PostgreSQL store's step on Redis's clock (a hash {window, reserved} expiring with it). ARGV: want,
 * limit, ttl ms, carried reserved, carried ms left (0, 0: none); returns [granted, total, window, ms left].
 */
const RESERVE_SCRIPT = `
  local window = redis.call('HGET', KEYS[1], 'window')
  local carried = tonumber(ARGV[4])
  local reserved = 0
  if window then
    reserved = math.max(carried, tonumber(redis.call('HGET', KEYS[1], 'reserved')))
    redis.call('HSET', KEYS[1], 'reserved', reserved)
  else
    local time = redis.call('TIME')
    local ttl = ARGV[3]
    if tonumber(ARGV[5]) > 0 then ttl = ARGV[5]; reserved = carried end
    window = time[1] .. '.' .. time[2]
    redis.call('HSET', KEYS[1], 'window', window, 'reserved', reserved)
    redis.call('PEXPIRE', KEYS[1], ttl)
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
 * The minute's counters in Redis (REDIS_URL). Every command fails within 500 ms when Redis is
 * unreachable or stalled; `FailoverAllowanceStore` decides what to do then.
 */
export class RedisAllowanceStore implements AllowanceStore {
  private readonly redis: Redis;

  constructor(redisUrl: string, onError: (error: unknown) => void) {
    this.redis = new Redis(redisUrl, {
      maxRetriesPerRequest: 0,
      enableOfflineQueue: false,
      commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
      retryStrategy: (attempts) => Math.min(attempts * 50, RECONNECT_MAX_DELAY_MS),
    });
    this.redis.on('error', onError);
  }

  async reserve(
    key: string,
    want: number,
    limit: number,
    ttlMs: number,
    carried?: CarriedWindow,
  ): Promise<Reservation> {
    const redisKey = KEY_PREFIX + key;
    const reply = await this.redis.eval(
      RESERVE_SCRIPT,
      1,
      redisKey,
      want,
      limit,
      Math.ceil(ttlMs),
      carried?.total ?? 0,
      Math.ceil(carried?.msLeft ?? 0),
    );
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
    const reply = await this.redis.eval(PEEK_SCRIPT, 1, KEY_PREFIX + key);
    if (reply === null) return null;
    const [, total, window, msLeft] = parseReply([0, ...(Array.isArray(reply) ? reply : [])]);
    return { total, window, msLeft };
  }

  /** Resolves when Redis answers a command within the command timeout. */
  async ping(): Promise<void> {
    await this.redis.ping();
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

function parseReply(reply: unknown): [number, number, string, number] {
  if (!Array.isArray(reply) || reply.length !== 4) {
    throw new Error(`Unexpected reply from the Redis reservation script: ${JSON.stringify(reply)}`);
  }
  return [Number(reply[0]), Number(reply[1]), String(reply[2]), Number(reply[3])];
}
