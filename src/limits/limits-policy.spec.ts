import {
  RESERVATION,
  admittedHeaders,
  counterKey,
  limitOf,
  monthTtlMs,
  refusalCode,
  refusedHeaders,
  reservationSize,
  retryAfterSeconds,
  secondsUntilNextUtcMonth,
  shouldReserveAhead,
  limitUsage,
  rateLimitFields,
} from './limits-policy';

const KEY = { id: 'k1', rpm: 120, monthlyQuota: 50_000 };

describe('secondsUntilNextUtcMonth', () => {
  it('counts to the first second of the next UTC month', () => {
    expect(secondsUntilNextUtcMonth(new Date('2026-11-30T23:59:00Z'))).toBe(60);
    expect(secondsUntilNextUtcMonth(new Date('2026-11-01T00:00:00Z'))).toBe(30 * 86_400);
  });

  it('gives 1 on the last second of a month, December to January included', () => {
    expect(secondsUntilNextUtcMonth(new Date('2026-12-31T23:59:59Z'))).toBe(1);
    expect(secondsUntilNextUtcMonth(new Date('2026-12-31T23:59:59.999Z'))).toBe(1);
    expect(secondsUntilNextUtcMonth(new Date('2026-12-31T00:00:00Z'))).toBe(86_400);
  });

  it('rounds a partial second up', () => {
    expect(secondsUntilNextUtcMonth(new Date('2026-12-31T23:59:58.200Z'))).toBe(2);
  });

  it('handles leap February and ignores the local time zone', () => {
    expect(secondsUntilNextUtcMonth(new Date('2028-02-29T00:00:00Z'))).toBe(86_400);
    expect(secondsUntilNextUtcMonth(new Date('2026-03-31T23:00:00-02:00'))).toBe(30 * 86_400 - 3_600);
  });
});

describe('the windows', () => {
  it('ends the month window at 00:00:00 UTC on the first of the next month', () => {
    const now = Date.parse('2026-11-30T23:59:00.000Z');
    expect(now + monthTtlMs(now)).toBe(Date.parse('2026-12-01T00:00:00.000Z'));
    const december = Date.parse('2026-12-31T23:59:59.999Z');
    expect(december + monthTtlMs(december)).toBe(Date.parse('2027-01-01T00:00:00.000Z'));
  });

  it('reads each limit from the key: rpm for the minute, the quota for the month', () => {
    expect(limitOf('minute', KEY)).toBe(120);
    expect(limitOf('month', KEY)).toBe(50_000);
  });

  it('keeps one counter per key and limit, whatever the route', () => {
    expect(counterKey('minute', 'k1')).not.toBe(counterKey('month', 'k1'));
    expect(counterKey('minute', 'k1')).not.toBe(counterKey('minute', 'k2'));
  });
});

describe('refusals and headers', () => {
  it('answers the minute with RATE_LIMITED and Retry-After 60, whenever in the minute', () => {
    expect(refusalCode('minute')).toBe('RATE_LIMITED');
    expect(retryAfterSeconds('minute', Date.parse('2026-11-30T23:59:59.900Z'))).toBe(60);
    expect(refusedHeaders('minute', Date.now())).toEqual({
      'X-RateLimit-Remaining': '0',
      'Retry-After': '60',
    });
  });

  it('answers the month with MONTHLY_QUOTA_EXCEEDED and the seconds to the next month, rounded up', () => {
    expect(refusalCode('month')).toBe('MONTHLY_QUOTA_EXCEEDED');
    const now = Date.parse('2026-03-15T10:20:30.250Z');
    expect(retryAfterSeconds('month', now)).toBe(16 * 86_400 + 13 * 3_600 + 39 * 60 + 30);
    expect(refusedHeaders('month', Date.parse('2026-12-31T23:59:59.999Z'))).toEqual({
      'X-RateLimit-Remaining': '0',
      'Retry-After': '1',
    });
  });

  it('admits with the policy and the policy minus 1', () => {
    expect(admittedHeaders(KEY)).toEqual({ 'X-RateLimit-Limit': '120', 'X-RateLimit-Remaining': '119' });
    expect(admittedHeaders({ ...KEY, rpm: 1 })).toEqual({
      'X-RateLimit-Limit': '1',
      'X-RateLimit-Remaining': '0',
    });
  });
});

describe('reservationSize', () => {
  const demand = { limit: 1_000_000, reserved: 0, waiting: 0, lastBlock: 0, msSinceLastRefill: 60_000 };

  it('starts with one request, or as many as are waiting', () => {
    expect(reservationSize(demand)).toBe(1);
    expect(reservationSize({ ...demand, waiting: 15 })).toBe(15);
  });

  it('doubles while blocks go fast, halves when they go slowly, keeps a steady size', () => {
    expect(reservationSize({ ...demand, lastBlock: 8, msSinceLastRefill: 10 })).toBe(16);
    expect(reservationSize({ ...demand, lastBlock: 8, msSinceLastRefill: 5_000 })).toBe(4);
    expect(reservationSize({ ...demand, lastBlock: 8, msSinceLastRefill: 500 })).toBe(8);
    expect(reservationSize({ ...demand, lastBlock: 1, msSinceLastRefill: 5_000 })).toBe(1);
  });

  it('never exceeds the largest block, so a crash costs a key at most that much', () => {
    expect(reservationSize({ ...demand, lastBlock: RESERVATION.maxBlock, msSinceLastRefill: 1 })).toBe(
      RESERVATION.maxBlock,
    );
    expect(reservationSize({ ...demand, waiting: 50_000 })).toBe(RESERVATION.maxBlock);
  });

  it('shrinks near the limit to a quarter of what is left, down to single requests', () => {
    const hot = { ...demand, lastBlock: 500, msSinceLastRefill: 1 };
    expect(reservationSize({ ...hot, limit: 10, reserved: 0 })).toBe(3);
    expect(reservationSize({ ...hot, limit: 10, reserved: 9 })).toBe(1);
    expect(reservationSize({ ...hot, limit: 1_000, reserved: 996 })).toBe(1);
    expect(reservationSize({ ...hot, limit: 1_000, reserved: 600 })).toBe(100);
  });

  it('still asks for one when the window looks exhausted (another replica may have returned some)', () => {
    expect(reservationSize({ ...demand, limit: 10, reserved: 10, waiting: 3 })).toBe(1);
    expect(reservationSize({ ...demand, limit: 10, reserved: 12 })).toBe(1);
  });
});

describe('shouldReserveAhead', () => {
  it('reserves a hot key’s next block when a quarter of the current one is left', () => {
    expect(shouldReserveAhead(26, 100)).toBe(false);
    expect(shouldReserveAhead(25, 100)).toBe(true);
    expect(shouldReserveAhead(0, 100)).toBe(true);
  });

  it('never for small blocks: slow keys and windows near their limit reserve only when they need to', () => {
    expect(shouldReserveAhead(0, 1)).toBe(false);
    expect(shouldReserveAhead(0, 3)).toBe(false);
    expect(shouldReserveAhead(1, 4)).toBe(true);
  });
});

describe('limitUsage and the RateLimit fields', () => {
  const now = Date.parse('2026-11-30T23:59:00.000Z');

  it('reports used, remaining and the reset of each window', () => {
    expect(limitUsage('minute', KEY, { used: 7, msLeft: 42_000 }, now)).toEqual({
      limit: 120,
      used: 7,
      remaining: 113,
      resetsAt: now + 42_000,
    });
    expect(limitUsage('month', KEY, { used: 50_000, msLeft: 60_000 }, now)).toMatchObject({
      remaining: 0,
      resetsAt: Date.parse('2026-12-01T00:00:00.000Z'),
    });
    expect(limitUsage('minute', KEY, null, now)).toEqual({
      limit: 120,
      used: 0,
      remaining: 120,
      resetsAt: null,
    });
    expect(limitUsage('month', KEY, null, now).resetsAt).toBe(Date.parse('2026-12-01T00:00:00.000Z'));
  });

  it('writes both fields as structured-field lists, one item per limit', () => {
    const usage = {
      minute: limitUsage('minute', KEY, { used: 1, msLeft: 41_200 }, now),
      month: limitUsage('month', KEY, { used: 1_000, msLeft: 60_000 }, now),
    };
    expect(rateLimitFields(KEY, usage, now)).toEqual({
      'RateLimit-Policy': `"minute";q=120;w=60, "month";q=50000;w=${30 * 86_400}`,
      RateLimit: '"minute";r=119;t=42, "month";r=49000;t=60',
    });
    expect(
      rateLimitFields(KEY, { ...usage, minute: limitUsage('minute', KEY, null, now) }, now).RateLimit,
    ).toMatch(/^"minute";r=120;t=60, /);
  });
});
