import {
  admittedHeaders,
  rateLimitFieldPatterns,
  rateLimitFields,
  refusedHeaders,
} from './rate-limit-headers';
import { LIMITS } from './limit-table';

const KEY = { id: 'k1', rpm: 120, monthlyQuota: 50_000 };
const [MINUTE, MONTH] = LIMITS;

describe('the rate-limit headers', () => {
  it('admits with the policy and the policy minus 1', () => {
    expect(admittedHeaders(KEY)).toEqual({ 'X-RateLimit-Limit': '120', 'X-RateLimit-Remaining': '119' });
    expect(admittedHeaders({ ...KEY, rpm: 1 })).toEqual({
      'X-RateLimit-Limit': '1',
      'X-RateLimit-Remaining': '0',
    });
  });

  it('refuses with Remaining 0 and the refusing limit’s Retry-After', () => {
    expect(refusedHeaders(MINUTE, Date.now())).toEqual({ 'X-RateLimit-Remaining': '0', 'Retry-After': '60' });
    expect(refusedHeaders(MONTH, Date.parse('2026-12-31T23:59:59.999Z'))).toEqual({
      'X-RateLimit-Remaining': '0',
      'Retry-After': '1',
    });
  });
});

describe('the RateLimit fields', () => {
  const now = Date.parse('2026-11-30T23:59:00.000Z');

  it('writes both fields as structured-field lists, one item per limit', () => {
    const standings = [
      { remaining: 119, resetsAt: now + 41_200 },
      { remaining: 49_000, resetsAt: Date.parse('2026-12-01T00:00:00.000Z') },
    ];
    const fields = rateLimitFields(LIMITS, KEY, standings, now);
    expect(fields).toEqual({
      'RateLimit-Policy': `"minute";q=120;w=60, "month";q=50000;w=${30 * 86_400}`,
      RateLimit: '"minute";r=119;t=42, "month";r=49000;t=60',
    });
    expect(
      rateLimitFields(LIMITS, KEY, [{ remaining: 120, resetsAt: null }, standings[1]], now).RateLimit,
    ).toMatch(/^"minute";r=120;t=60, /);
    const patterns = rateLimitFieldPatterns(LIMITS);
    expect(fields['RateLimit-Policy']).toMatch(new RegExp(patterns.policy));
    expect(fields.RateLimit).toMatch(new RegExp(patterns.current));
  });
});
