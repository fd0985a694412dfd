import { secondsUntilNextUtcMonth } from './utc-month';

const at = (iso: string) => Date.parse(iso);

describe('secondsUntilNextUtcMonth', () => {
  it('counts to the first second of the next UTC month', () => {
    expect(secondsUntilNextUtcMonth(at('2026-11-30T23:59:00Z'))).toBe(60);
    expect(secondsUntilNextUtcMonth(at('2026-11-01T00:00:00Z'))).toBe(30 * 86_400);
  });

  it('gives 1 on the last second of a month, December to January included', () => {
    expect(secondsUntilNextUtcMonth(at('2026-12-31T23:59:59Z'))).toBe(1);
    expect(secondsUntilNextUtcMonth(at('2026-12-31T23:59:59.999Z'))).toBe(1);
    expect(secondsUntilNextUtcMonth(at('2026-12-31T00:00:00Z'))).toBe(86_400);
  });

  it('rounds a partial second up', () => {
    expect(secondsUntilNextUtcMonth(at('2026-12-31T23:59:58.200Z'))).toBe(2);
  });

  it('handles leap February and ignores the local time zone', () => {
    expect(secondsUntilNextUtcMonth(at('2028-02-29T00:00:00Z'))).toBe(86_400);
    expect(secondsUntilNextUtcMonth(at('2026-03-31T23:00:00-02:00'))).toBe(30 * 86_400 - 3_600);
  });
});
