import { secondsUntilNextUtcMonth } from './month';
import {
  PostgresThrottlerStorage,
  RATE_LIMIT_RETRY_AFTER_SECONDS,
  usageRecord,
} from './postgres-throttler.storage';
import { encodeUsageKey } from './usage-storage';
import type { RequestUsage, UsageRepository } from './usage.repository';

const NOW = new Date('2026-11-30T23:59:00.000Z');
const KEY_ID = '0b7e3f4c-8f6a-4a53-9d55-2a1c3c1b9e01';

describe('usageRecord', () => {
  it('lets a request within the limit through and reports the quota as used', () => {
    expect(usageRecord(3, 10, 42, { quotaUsed: 17, now: NOW })).toEqual({
      totalHits: 3,
      timeToExpire: 42,
      isBlocked: false,
      timeToBlockExpire: 0,
      quota: { exceeded: false, retryAfterSeconds: 60 },
    });
  });

  it('treats the last request of the limit as within it', () => {
    expect(usageRecord(10, 10, 5, { quotaUsed: 1, now: NOW })).toMatchObject({
      totalHits: 10,
      isBlocked: false,
      timeToBlockExpire: 0,
      quota: { exceeded: false },
    });
  });

  it('reports the quota as exceeded when it refused the request, retrying at the next UTC month', () => {
    const now = new Date('2026-03-15T10:20:30.000Z');
    const record = usageRecord(1, 10, 30, { quotaUsed: null, now });
    expect(record.isBlocked).toBe(false);
    expect(record.quota).toEqual({ exceeded: true, retryAfterSeconds: secondsUntilNextUtcMonth(now) });
    expect(record.quota?.retryAfterSeconds).toBe(16 * 86_400 + 13 * 3_600 + 39 * 60 + 30);
  });

  it('counts quota 0 as used, not exceeded', () => {
    expect(usageRecord(1, 10, 30, { quotaUsed: 0, now: NOW }).quota).toEqual({
      exceeded: false,
      retryAfterSeconds: 60,
    });
  });

  it('blocks a request over the limit for 60 s without consulting the quota', () => {
    expect(usageRecord(11, 10, 12, { quotaUsed: null, now: NOW })).toEqual({
      totalHits: 11,
      timeToExpire: 12,
      isBlocked: true,
      timeToBlockExpire: 60,
      quota: null,
    });
    expect(RATE_LIMIT_RETRY_AFTER_SECONDS).toBe(60);
    expect(usageRecord(500, 1, 1, { quotaUsed: 5, now: NOW })).toMatchObject({
      isBlocked: true,
      quota: null,
    });
  });

  it('has no quota outcome when none was given', () => {
    expect(usageRecord(1, 10, 60, null)).toEqual({
      totalHits: 1,
      timeToExpire: 60,
      isBlocked: false,
      timeToBlockExpire: 0,
      quota: null,
    });
  });

  it.each([1, 30, 60])('gives the seconds left in the window (%i) as timeToExpire', (secondsLeft) => {
    expect(usageRecord(1, 10, secondsLeft, null).timeToExpire).toBe(secondsLeft);
    expect(usageRecord(11, 10, secondsLeft, null).timeToExpire).toBe(secondsLeft);
  });
});

describe('PostgresThrottlerStorage', () => {
  let recordRequest: jest.Mock<Promise<RequestUsage>, [string, number, number]>;
  let deleteExpiredWindows: jest.Mock<Promise<void>, []>;
  let storage: PostgresThrottlerStorage;

  beforeEach(() => {
    recordRequest = jest.fn();
    deleteExpiredWindows = jest.fn().mockResolvedValue(undefined);
    storage = new PostgresThrottlerStorage({
      recordRequest,
      deleteExpiredWindows,
    } as unknown as UsageRepository);
  });

  afterEach(() => {
    storage.onModuleDestroy();
  });

  it('decodes the key and counts both limits with one repository call', async () => {
    const now = new Date('2026-03-15T10:20:45.000Z');
    recordRequest.mockResolvedValue({ minuteHits: 4, quotaUsed: 900, now });
    const record = await storage.increment(encodeUsageKey(KEY_ID, 1_000_000_000_000), 60_000, 120);
    expect(recordRequest).toHaveBeenCalledTimes(1);
    expect(recordRequest).toHaveBeenCalledWith(KEY_ID, 120, 1_000_000_000_000);
    expect(record).toEqual({
      totalHits: 4,
      timeToExpire: 15,
      isBlocked: false,
      timeToBlockExpire: 0,
      quota: { exceeded: false, retryAfterSeconds: secondsUntilNextUtcMonth(now) },
    });
  });

  it('takes the window end from the database clock', async () => {
    recordRequest.mockResolvedValue({
      minuteHits: 1,
      quotaUsed: 1,
      now: new Date('2026-03-15T10:20:00.000Z'),
    });
    expect((await storage.increment(encodeUsageKey(KEY_ID, 5), 60_000, 10)).timeToExpire).toBe(60);
    recordRequest.mockResolvedValue({
      minuteHits: 2,
      quotaUsed: 2,
      now: new Date('2026-03-15T10:20:59.500Z'),
    });
    expect((await storage.increment(encodeUsageKey(KEY_ID, 5), 60_000, 10)).timeToExpire).toBe(1);
  });

  it('reports an exceeded quota', async () => {
    recordRequest.mockResolvedValue({ minuteHits: 2, quotaUsed: null, now: NOW });
    await expect(storage.increment(encodeUsageKey(KEY_ID, 5), 60_000, 10)).resolves.toMatchObject({
      isBlocked: false,
      quota: { exceeded: true, retryAfterSeconds: 60 },
    });
  });

  it('blocks over the per-minute limit and leaves the quota out', async () => {
    recordRequest.mockResolvedValue({ minuteHits: 11, quotaUsed: null, now: NOW });
    await expect(storage.increment(encodeUsageKey(KEY_ID, 5), 60_000, 10)).resolves.toEqual({
      totalHits: 11,
      timeToExpire: 60,
      isBlocked: true,
      timeToBlockExpire: 60,
      quota: null,
    });
    expect(recordRequest).toHaveBeenCalledTimes(1);
  });

  it('passes a repository failure on', async () => {
    const failure = new Error('database down');
    recordRequest.mockRejectedValue(failure);
    await expect(storage.increment(encodeUsageKey(KEY_ID, 5), 60_000, 10)).rejects.toBe(failure);
  });
});

describe('PostgresThrottlerStorage cleanup', () => {
  beforeEach(() => {
    jest.useFakeTimers();
  });

  afterEach(() => {
    jest.useRealTimers();
  });

  it('deletes finished windows every minute until the module is destroyed, ignoring failures', () => {
    const deleteExpiredWindows = jest
      .fn()
      .mockRejectedValueOnce(new Error('down'))
      .mockResolvedValue(undefined);
    const storage = new PostgresThrottlerStorage({ deleteExpiredWindows } as unknown as UsageRepository);
    expect(deleteExpiredWindows).not.toHaveBeenCalled();
    jest.advanceTimersByTime(60_000);
    expect(deleteExpiredWindows).toHaveBeenCalledTimes(1);
    jest.advanceTimersByTime(60_000);
    expect(deleteExpiredWindows).toHaveBeenCalledTimes(2);
    storage.onModuleDestroy();
    jest.advanceTimersByTime(10 * 60_000);
    expect(deleteExpiredWindows).toHaveBeenCalledTimes(2);
  });
});
