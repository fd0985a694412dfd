import {
  ANSWER_OVERHEAD_BYTES,
  CacheBudget,
  ENTRY_OVERHEAD_BYTES,
  SecondMissAdmission,
  VersionedCache,
  bytesWeight,
  stringBytes,
} from './versioned-cache';

/** The weigher of these tests' caches of texts: a text (or null) under a key, as V8 stores both. */
const textWeight = (key: string, text: string | null) =>
  ENTRY_OVERHEAD_BYTES + stringBytes(key) + (text === null ? 0 : stringBytes(text));

/** The weight of an entry of these tests: a key of one letter and a value of 9. */
const ENTRY = ENTRY_OVERHEAD_BYTES + 10;
/** A cache of texts with a budget of its own, of `entries` entries. */
const cacheOf = (entries: number, admission?: SecondMissAdmission) =>
  new VersionedCache<string | null>(new CacheBudget(entries * ENTRY), textWeight, admission);
const value = (letter: string) => letter.repeat(9);

describe('VersionedCache', () => {
  it('keeps an answer on its first store and serves it under its version, null included', () => {
    const cache = cacheOf(2);
    cache.store('v1', 'a', value('A'));
    cache.store('v1', 'n', null);
    expect(cache.lookup('a')).toEqual({ version: 'v1', value: value('A') });
    expect(cache.lookup('n')).toEqual({ version: 'v1', value: null });
    expect(cache.lookup('x')).toBeUndefined();
  });

  it('counts each lookup as a hit or a miss, and the misses callers note themselves', () => {
    const cache = cacheOf(2);
    cache.store('v1', 'a', value('A'));
    cache.lookup('a');
    cache.lookup('a');
    cache.lookup('x');
    cache.noteMiss();
    expect([cache.hits, cache.misses]).toEqual([2, 2]);
  });

  it('gives concurrent misses of one key one read, and keeps what it found', async () => {
    const cache = cacheOf(2);
    let reads = 0;
    let finish!: () => void;
    const read = () =>
      new Promise<{ version: string; value: string }>((resolve) => {
        reads++;
        finish = () => resolve({ version: 'v1', value: value('A') });
      });
    const answers = [cache.readMissing('a', read), cache.readMissing('a', read)];
    expect(reads).toBe(1);
    finish();
    expect(await Promise.all(answers)).toEqual([
      { version: 'v1', value: value('A') },
      { version: 'v1', value: value('A') },
    ]);
    expect(cache.lookup('a')).toEqual({ version: 'v1', value: value('A') });
  });

  it('keeps nothing read without a version, nor of another version than its entries', () => {
    const cache = cacheOf(2);
    cache.store(null, 'a', value('A'));
    expect(cache.size).toBe(0);
    cache.store('v1', 'a', value('A'));
    cache.store('v2', 'b', value('B'));
    expect(cache.has('b')).toBe(false);
    cache.useVersion('v2');
    expect([cache.size, cache.bytes]).toEqual([0, 0]);
    expect(cache.lookup('a')).toBeUndefined();
    cache.store('v2', 'b', value('B'));
    expect(cache.lookup('b')?.version).toBe('v2');
  });

  it('counts the bytes it holds and evicts the least recently used beyond its bound', () => {
    const cache = cacheOf(2);
    cache.store('v1', 'a', value('A'));
    cache.store('v1', 'b', value('B'));
    expect(cache.bytes).toBe(2 * (ENTRY_OVERHEAD_BYTES + 10));
    cache.lookup('a');
    cache.store('v1', 'c', value('C'));
    expect([cache.has('a'), cache.has('b'), cache.has('c')]).toEqual([true, false, true]);
    expect(cache.bytes).toBe(cache.maxBytes);
    cache.store('v1', 'c', value('D'));
    expect([cache.size, cache.bytes]).toEqual([2, cache.maxBytes]);
  });

  it('leaves an entry used among the newest quarter where it is, and moves an older one to the newest end', () => {
    const cache = cacheOf(8);
    const keys = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
    for (const key of keys) cache.store('v1', key, value(key));
    // 'g' was stored one entry ago (fewer than 8 / 4): still among the newest, it is not moved.
    cache.lookup('g');
    // 'a' was stored seven entries ago: it moves behind 'h'.
    cache.lookup('a');
    const evicted = () => keys.filter((key) => !cache.has(key));
    cache.store('v1', 'i', value('i'));
    expect(evicted()).toEqual(['b']);
    for (const key of ['j', 'k', 'l', 'm', 'n']) cache.store('v1', key, value(key));
    // 'g', left where it was, goes before 'h' (within a quarter of exact LRU) and 'a'.
    expect(evicted()).toEqual(['b', 'c', 'd', 'e', 'f', 'g']);
    cache.store('v1', 'o', value('o'));
    expect(evicted()).toEqual(['b', 'c', 'd', 'e', 'f', 'g', 'h']);
    expect(cache.has('a')).toBe(true);
  });

  it('evicts as many entries as a heavy one needs, and never keeps one heavier than the whole cache', () => {
    const cache = cacheOf(3);
    for (const key of ['a', 'b', 'c']) cache.store('v1', key, value(key));
    cache.store('v1', 'h', 'x'.repeat(19));
    expect([cache.has('a'), cache.has('b'), cache.has('c'), cache.has('h')]).toEqual([
      false,
      false,
      true,
      true,
    ]);
    cache.store('v1', 'z', 'x'.repeat(cache.maxBytes));
    expect(cache.has('z')).toBe(false);
    expect(cache.has('c')).toBe(true);
  });

  it('counts text as V8 stores it: one byte a character for Latin-1, two for any other', () => {
    expect(stringBytes('abc')).toBe(3);
    expect(stringBytes('Amélie ÿ')).toBe(8);
    expect(stringBytes('Tokyo 東京')).toBe(16);
    expect(stringBytes('')).toBe(0);
  });

  it('weighs an answer as its key, its bytes and the objects around them; a cached null as its key', () => {
    expect(bytesWeight('tt1', { byteLength: 500 })).toBe(
      ENTRY_OVERHEAD_BYTES + 3 + ANSWER_OVERHEAD_BYTES + 500,
    );
    expect(bytesWeight('東京', { byteLength: 500 })).toBe(
      ENTRY_OVERHEAD_BYTES + 4 + ANSWER_OVERHEAD_BYTES + 500,
    );
    expect(bytesWeight('tt1', null)).toBe(ENTRY_OVERHEAD_BYTES + 3);
  });

  it('peeks only under its own version, without making the entry recent', () => {
    const cache = cacheOf(2);
    cache.store('v1', 'a', value('A'));
    cache.store('v1', 'b', value('B'));
    expect(cache.peek('v1', 'a')).toBe(value('A'));
    expect(cache.peek('v2', 'a')).toBeUndefined();
    expect(cache.peek(null, 'a')).toBeUndefined();
    cache.store('v1', 'c', value('C'));
    expect(cache.has('a')).toBe(false);
  });

  it('with second-miss admission keeps a key on its second miss, and forgets first misses beyond its bound', () => {
    const cache = cacheOf(10, new SecondMissAdmission(2));
    cache.store('v1', 'a', value('A'));
    expect(cache.has('a')).toBe(false);
    cache.store('v1', 'a', value('A'));
    expect(cache.lookup('a')?.value).toBe(value('A'));
    for (const key of ['b', 'c', 'd', 'b']) cache.store('v1', key, value(key));
    expect(cache.has('b')).toBe(false);
    cache.useVersion('v2');
    cache.store('v2', 'd', value('D'));
    expect(cache.has('d')).toBe(false);
  });
});

describe('CacheBudget', () => {
  /** Two caches sharing a budget of `entries`, each keeping `floor` entries whatever the other wants. */
  const pairOf = (entries: number, floor: number) => {
    const budget = new CacheBudget(entries * ENTRY);
    const first = new VersionedCache<string | null>(budget, textWeight, undefined, floor * ENTRY);
    const second = new VersionedCache<string | null>(budget, textWeight, undefined, floor * ENTRY);
    return { first, second };
  };
  const fill = (cache: VersionedCache<string | null>, keys: string) => {
    for (const key of keys) cache.store('v1', key, value(key));
  };

  it('lets one cache use the whole budget while the other holds nothing', () => {
    const { first, second } = pairOf(6, 1);
    fill(first, 'abcdefg');
    expect([first.size, second.size]).toEqual([6, 0]);
    expect(first.has('a')).toBe(false);
  });

  it('evicts the least recently used entry of either cache, never below a cache’s floor', () => {
    const { first, second } = pairOf(6, 1);
    fill(first, 'abcd');
    first.lookup('a');
    fill(second, 'xyz');
    // b was the least recently used of all.
    expect([first.has('a'), first.has('b'), first.has('c'), first.has('d')]).toEqual([
      true,
      false,
      true,
      true,
    ]);
    fill(second, 'uv');
    expect([first.size, second.size]).toEqual([1, 5]);
    expect(first.has('a')).toBe(true);
    fill(second, 'w');
    // first is at its floor: second gives way, its own oldest first.
    expect([first.size, second.size, second.has('x')]).toEqual([1, 5, false]);
    expect(first.bytes + second.bytes).toBeLessThanOrEqual(6 * ENTRY);
  });

  it('gives back what a cache held when it moves to another catalog version', () => {
    const { first, second } = pairOf(4, 1);
    fill(first, 'abc');
    first.useVersion('v2');
    fill(second, 'xyz');
    expect([first.size, second.size]).toEqual([0, 3]);
  });

  it('refuses floors that do not fit the budget', () => {
    const budget = new CacheBudget(2 * ENTRY);
    new VersionedCache<string | null>(budget, textWeight, undefined, ENTRY);
    expect(() => new VersionedCache<string | null>(budget, textWeight, undefined, 2 * ENTRY)).toThrow(
      /floors/,
    );
  });
});
