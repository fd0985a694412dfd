import { LIMITS } from './limit-table';
import { limitUsage } from './limit-usage';

const KEY = { id: 'k1', rpm: 120, monthlyQuota: 50_000 };
const [MINUTE, MONTH] = LIMITS;

describe('limitUsage', () => {
  const now = Date.parse('2026-11-30T23:59:00.000Z');

  it('reports used, remaining and the reset of each window', () => {
    expect(limitUsage(MINUTE, KEY, { used: 7, msLeft: 42_000 }, now)).toEqual({
      limit: 120,
      used: 7,
      remaining: 113,
      resetsAt: now + 42_000,
    });
    expect(limitUsage(MONTH, KEY, { used: 50_000, msLeft: 60_000 }, now)).toMatchObject({
      remaining: 0,
      resetsAt: Date.parse('2026-12-01T00:00:00.000Z'),
    });
    expect(limitUsage(MINUTE, KEY, null, now)).toEqual({
      limit: 120,
      used: 0,
      remaining: 120,
      resetsAt: null,
    });
    expect(limitUsage(MONTH, KEY, null, now).resetsAt).toBe(Date.parse('2026-12-01T00:00:00.000Z'));
  });

  it('never reports more used than the limit', () => {
    expect(limitUsage(MINUTE, KEY, { used: 500, msLeft: 1_000 }, now)).toMatchObject({
      used: 120,
      remaining: 0,
    });
  });
});
