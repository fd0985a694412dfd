import type { Title } from './title';
import { VersionedTitleCache } from './title-cache';

const title = (imdbId: string) => ({ imdb_id: imdbId }) as Title;

/** An id is kept on its second miss. */
function missTwice(cache: VersionedTitleCache, version: string | null, imdbId: string, value: Title | null) {
  cache.store(version, imdbId, value);
  cache.store(version, imdbId, value);
}

describe('VersionedTitleCache', () => {
  it('serves what it stored under its version, null (unknown id) included', () => {
    const cache = new VersionedTitleCache(10);
    missTwice(cache, 'v1', 'tt1', title('tt1'));
    missTwice(cache, 'v1', 'tt2', null);
    expect(cache.lookup('tt1')).toEqual({ version: 'v1', value: title('tt1') });
    expect(cache.lookup('tt2')).toEqual({ version: 'v1', value: null });
    expect(cache.lookup('tt3')).toBeUndefined();
  });

  it('takes the version of the first answer it keeps, and keeps no answer of another version', () => {
    const cache = new VersionedTitleCache(10);
    missTwice(cache, 'v1', 'tt1', title('tt1'));
    missTwice(cache, 'v2', 'tt2', title('tt2'));
    expect(cache.has('tt2')).toBe(false);
    expect(cache.lookup('tt1')?.version).toBe('v1');
  });

  it('empties when the live version changes, then keeps the new version only', () => {
    const cache = new VersionedTitleCache(10);
    missTwice(cache, 'v1', 'tt1', title('tt1'));
    cache.useVersion('v1');
    expect(cache.size).toBe(1);
    cache.useVersion('v2');
    expect(cache.size).toBe(0);
    expect(cache.lookup('tt1')).toBeUndefined();
    missTwice(cache, 'v1', 'tt1', title('tt1'));
    expect(cache.size).toBe(1);
    cache.useVersion('v2');
    expect(cache.size).toBe(0);
    missTwice(cache, 'v2', 'tt1', title('tt1'));
    expect(cache.lookup('tt1')?.version).toBe('v2');
  });

  it('never keeps an answer read before any catalog was loaded', () => {
    const cache = new VersionedTitleCache(10);
    missTwice(cache, null, 'tt1', null);
    expect(cache.size).toBe(0);
  });

  it('keeps an id on its second miss, and forgets first misses beyond its bound', () => {
    const cache = new VersionedTitleCache(2);
    cache.store('v1', 'tt1', title('tt1'));
    expect(cache.has('tt1')).toBe(false);
    cache.store('v1', 'tt1', title('tt1'));
    expect(cache.lookup('tt1')?.value).toEqual(title('tt1'));
    cache.store('v1', 'tt2', title('tt2'));
    cache.store('v1', 'tt3', title('tt3'));
    cache.store('v1', 'tt4', title('tt4'));
    cache.store('v1', 'tt2', title('tt2'));
    expect(cache.has('tt2')).toBe(false);
  });

  it('holds at most its bound, evicting the least recently used', () => {
    const cache = new VersionedTitleCache(2);
    missTwice(cache, 'v1', 'tt1', title('tt1'));
    missTwice(cache, 'v1', 'tt2', title('tt2'));
    cache.lookup('tt1');
    missTwice(cache, 'v1', 'tt3', title('tt3'));
    expect(cache.size).toBe(2);
    expect(cache.has('tt2')).toBe(false);
    expect(cache.has('tt1')).toBe(true);
    expect(cache.has('tt3')).toBe(true);
  });
});
