import { LIMITS, counterKey } from './limit-table';

const KEY = { id: 'k1', rpm: 120, monthlyQuota: 50_000 };
const [MINUTE, MONTH] = LIMITS;

describe('the limit table', () => {
  it('lists the minute before the month: the contract checks them in that order', () => {
    expect(LIMITS.map((row) => row.name)).toEqual(['minute', 'month']);
  });

  it('ends the month window at 00:00:00 UTC on the first of the next month', () => {
    const now = Date.parse('2026-11-30T23:59:00.000Z');
    expect(now + MONTH.window.ttlMs(now)).toBe(Date.parse('2026-12-01T00:00:00.000Z'));
    const december = Date.parse('2026-12-31T23:59:59.999Z');
    expect(december + MONTH.window.ttlMs(december)).toBe(Date.parse('2027-01-01T00:00:00.000Z'));
    expect(MONTH.window.calendarEnd(now)).toBe(Date.parse('2026-12-01T00:00:00.000Z'));
  });

  it('runs the minute for 60 s from the key’s first request, with no calendar end', () => {
    expect(MINUTE.window.ttlMs(Date.now())).toBe(60_000);
    expect(MINUTE.window.seconds(Date.now())).toBe(60);
    expect(MINUTE.window.calendarEnd(Date.now())).toBeNull();
  });

  it('reads each limit from the key: rpm for the minute, the quota for the month', () => {
    expect(MINUTE.limit.of(KEY)).toBe(120);
    expect(MONTH.limit.of(KEY)).toBe(50_000);
    expect([MINUTE.limit.field, MONTH.limit.field]).toEqual(['rpm', 'monthly_quota']);
  });

  it('refuses the minute with RATE_LIMITED after 60 s, whenever in the minute', () => {
    expect(MINUTE.refusal).toBe('RATE_LIMITED');
    expect(MINUTE.retryAfterSeconds(Date.parse('2026-11-30T23:59:59.900Z'))).toBe(60);
  });

  it('refuses the month with MONTHLY_QUOTA_EXCEEDED and the seconds to the next month, rounded up', () => {
    expect(MONTH.refusal).toBe('MONTHLY_QUOTA_EXCEEDED');
    const now = Date.parse('2026-03-15T10:20:30.250Z');
    expect(MONTH.retryAfterSeconds(now)).toBe(16 * 86_400 + 13 * 3_600 + 39 * 60 + 30);
  });

  it('keeps the minute in its own table (Redis when configured), the month in a durable one that records the last use, and only the month is a quota', () => {
    expect(MINUTE.counters).toEqual({ table: 'rate_counters', redis: true });
    expect(MONTH.counters).toEqual({ table: 'quota_counters', redis: false, lastUse: true });
    expect([MINUTE.quota, MONTH.quota]).toEqual([false, true]);
  });

  it('keeps one counter per key and limit, whatever the route', () => {
    expect(counterKey('minute', 'k1')).toBe('minute:k1');
    expect(counterKey('minute', 'k1')).not.toBe(counterKey('month', 'k1'));
    expect(counterKey('minute', 'k1')).not.toBe(counterKey('minute', 'k2'));
  });
});
