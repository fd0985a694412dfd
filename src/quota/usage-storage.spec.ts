import { randomUUID } from 'node:crypto';
import { decodeUsageKey, encodeUsageKey } from './usage-storage';

describe('encodeUsageKey and decodeUsageKey', () => {
  it('round-trip a UUID key id and its monthly quota', () => {
    const keyId = randomUUID();
    expect(decodeUsageKey(encodeUsageKey(keyId, 50_000))).toEqual({ keyId, monthlyQuota: 50_000 });
  });

  it.each([1, 1_000_000, 1_000_000_000_000, Number.MAX_SAFE_INTEGER])(
    'round-trip the quota %p exactly',
    (quota) => {
      const keyId = '0b7e3f4c-8f6a-4a53-9d55-2a1c3c1b9e01';
      expect(decodeUsageKey(encodeUsageKey(keyId, quota))).toEqual({ keyId, monthlyQuota: quota });
    },
  );

  it('encodes the quota in plain decimal, not exponent notation', () => {
    expect(encodeUsageKey('id', 1_000_000_000_000)).toBe('id:1000000000000');
  });

  it('gives different keys different counters', () => {
    expect(encodeUsageKey(randomUUID(), 10)).not.toBe(encodeUsageKey(randomUUID(), 10));
    expect(encodeUsageKey('id', 10)).not.toBe(encodeUsageKey('id', 11));
  });

  it('splits at the last separator, so a key id containing one survives', () => {
    expect(decodeUsageKey(encodeUsageKey('tenant:key', 7))).toEqual({ keyId: 'tenant:key', monthlyQuota: 7 });
  });
});
