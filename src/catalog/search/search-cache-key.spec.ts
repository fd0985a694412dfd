import { searchQuery } from './search-text';
import { searchCacheKey } from './search-cache-key';

const key = (q: string, extra: { type?: 'movie'; year?: number; page?: number; limit?: number } = {}) =>
  searchCacheKey(searchQuery(q).key, { page: 1, limit: 20, ...extra });

describe('searchCacheKey', () => {
  it('is one key for texts with the same tokens', () => {
    expect(key('The  Matrix!')).toBe(key('the matrix'));
  });

  it('tells apart every input the answer depends on', () => {
    const keys = [
      key('the matrix'),
      key('matrix the'),
      key('the matrix', { type: 'movie' }),
      key('the matrix', { year: 1999 }),
      key('the matrix', { page: 2 }),
      key('the matrix', { limit: 5 }),
    ];
    expect(new Set(keys).size).toBe(keys.length);
  });
});
