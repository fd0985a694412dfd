import { Logger } from '@nestjs/common';
import { Registry } from 'prom-client';
import type { Database } from '../database/database';
import { KEY_QUOTA_READ_INTERVAL_MS, KeyQuotaMetrics } from './key-quota.metrics';

const sample = async (registry: Registry, name: string) =>
  Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(await registry.metrics())?.[1]);

describe('KeyQuotaMetrics', () => {
  let registry: Registry;
  let query: jest.Mock<Promise<unknown[]>, [string, (readonly unknown[])?]>;
  let metrics: KeyQuotaMetrics;

  beforeEach(() => {
    jest.useFakeTimers();
    registry = new Registry();
    query = jest.fn<Promise<unknown[]>, [string, (readonly unknown[])?]>(async () => [
      { nearlyUsed: 3, usedUp: 1 },
    ]);
    metrics = new KeyQuotaMetrics(registry, { query } as unknown as Database);
  });
  afterEach(() => {
    metrics.onModuleDestroy();
    jest.useRealTimers();
  });

  it('reads NaN before its first count, counts at start, then once every 30 s, never per scrape', async () => {
    expect(await sample(registry, 'api_keys_monthly_quota_nearly_used')).toBeNaN();
    metrics.onModuleInit();
    await jest.advanceTimersByTimeAsync(0);
    expect(query).toHaveBeenCalledTimes(1);
    expect(await sample(registry, 'api_keys_monthly_quota_nearly_used')).toBe(3);
    expect(await sample(registry, 'api_keys_monthly_quota_used_up')).toBe(1);
    for (let scrape = 0; scrape < 5; scrape++) await registry.metrics();
    expect(query).toHaveBeenCalledTimes(1);

    query.mockResolvedValue([{ nearlyUsed: 4, usedUp: 2 }]);
    await jest.advanceTimersByTimeAsync(KEY_QUOTA_READ_INTERVAL_MS);
    expect(query).toHaveBeenCalledTimes(2);
    expect(await sample(registry, 'api_keys_monthly_quota_used_up')).toBe(2);
    // One statement each time: the counts of usable keys in the month's open window, no write.
    const [sql] = query.mock.calls[1];
    expect(sql).toMatch(/reserved \* 5 >= k\.monthly_quota \* 4/);
    expect(sql).toMatch(/NOT k\.disabled/);
    expect(sql).toMatch(/c\.expires_at > now\(\)/);
    expect(sql).not.toMatch(/\b(INSERT|UPDATE|DELETE)\b/i);
  });

  it('reads NaN while the count fails, warns once per outage, and recovers', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn');
    try {
      metrics.onModuleInit();
      await jest.advanceTimersByTimeAsync(0);
      query.mockRejectedValue(new Error('database down'));
      await jest.advanceTimersByTimeAsync(3 * KEY_QUOTA_READ_INTERVAL_MS);
      expect(await sample(registry, 'api_keys_monthly_quota_nearly_used')).toBeNaN();
      expect(await sample(registry, 'api_keys_monthly_quota_used_up')).toBeNaN();
      expect(warn).toHaveBeenCalledTimes(1);
      query.mockResolvedValue([{ nearlyUsed: 0, usedUp: 0 }]);
      await jest.advanceTimersByTimeAsync(KEY_QUOTA_READ_INTERVAL_MS);
      expect(await sample(registry, 'api_keys_monthly_quota_nearly_used')).toBe(0);
    } finally {
      warn.mockRestore();
    }
  });

  it('joins a count already running instead of sending a second statement', async () => {
    let finish: (rows: unknown[]) => void = () => undefined;
    query.mockImplementationOnce(() => new Promise((resolve) => (finish = resolve)));
    const first = metrics.refresh();
    const second = metrics.refresh();
    finish([{ nearlyUsed: 1, usedUp: 0 }]);
    await Promise.all([first, second]);
    expect(query).toHaveBeenCalledTimes(1);
  });
});
