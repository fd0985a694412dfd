import { VersionedCache } from './versioned-cache';

describe('VersionedCache (every answer admitted)', () => {
  it('keeps an answer on its first store and serves it under its version', () => {
    const cache = new VersionedCache<string>(2);
    cache.store('v1', 'a', 'A');
    expect(cache.lookup('a')).toEqual({ version: 'v1', value: 'A' });
  });

  it('keeps nothing read without a version, nor of another version than its entries', () => {
    const cache = new VersionedCache<string>(2);
    cache.store(null, 'a', 'A');
    expect(cache.size).toBe(0);
    cache.store('v1', 'a', 'A');
    cache.store('v2', 'b', 'B');
    expect(cache.has('b')).toBe(false);
    cache.useVersion('v2');
    expect(cache.lookup('a')).toBeUndefined();
  });

  it('evicts the least recently used beyond its bound', () => {
    const cache = new VersionedCache<string>(2);
    cache.store('v1', 'a', 'A');
    cache.store('v1', 'b', 'B');
    cache.lookup('a');
    cache.store('v1', 'c', 'C');
    expect([cache.has('a'), cache.has('b'), cache.has('c')]).toEqual([true, false, true]);
  });
});
