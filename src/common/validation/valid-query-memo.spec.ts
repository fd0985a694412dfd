import { PageQueryDto } from '../../catalog/dto/page-query.dto';
import { SearchQueryDto } from '../../catalog/dto/search-query.dto';
import { MAX_REMEMBERED_BYTES, MAX_REMEMBERED_QUERY_LENGTH, ValidQueryMemo } from './valid-query-memo';
import { searchQuery } from '../../catalog/search/search-text';

describe('ValidQueryMemo', () => {
  it('answers a text it kept with the same frozen DTO, per DTO class', () => {
    const memo = new ValidQueryMemo();
    const page = Object.assign(new PageQueryDto(), { page: 2 });
    expect(memo.remember(PageQueryDto, 'page=2', page)).toBe(page);
    expect(Object.isFrozen(page)).toBe(true);
    expect(memo.get(PageQueryDto, 'page=2')).toBe(page);
    expect(memo.get(PageQueryDto, 'page=02')).toBeUndefined();
    expect(memo.get(SearchQueryDto, 'page=2')).toBeUndefined();
  });

  it('does not keep a text longer than its bound, and lets the oldest go beyond its bytes', () => {
    const memo = new ValidQueryMemo(10_000);
    const long = `page=${'0'.repeat(MAX_REMEMBERED_QUERY_LENGTH)}1`;
    expect(Object.isFrozen(memo.remember(PageQueryDto, long, new PageQueryDto()))).toBe(true);
    expect(memo.get(PageQueryDto, long)).toBeUndefined();
    const texts = Array.from({ length: 100 }, (_, i) => `page=${i}`);
    for (const text of texts)
      memo.remember(PageQueryDto, text, Object.assign(new PageQueryDto(), { page: 1 }));
    expect(memo.bytesOf(PageQueryDto)).toBeLessThanOrEqual(10_000);
    const kept = texts.filter((text) => memo.get(PageQueryDto, text) !== undefined);
    // The newest stay, the oldest went.
    expect(kept.length).toBeGreaterThan(10);
    expect(kept).toEqual(texts.slice(texts.length - kept.length));
  });

  it('holds a flood of distinct 100-character searches within its bytes', () => {
    const memo = new ValidQueryMemo();
    for (let i = 0; i < 20_000; i++) {
      const q = `w${i} ${'abcdefghij '.repeat(9)}`.slice(0, 100);
      const dto = Object.assign(new SearchQueryDto(), { q, search: searchQuery(q) });
      memo.remember(SearchQueryDto, `q=${encodeURIComponent(q)}`, dto);
    }
    expect(memo.bytesOf(SearchQueryDto)).toBeLessThanOrEqual(MAX_REMEMBERED_BYTES);
    expect(memo.bytesOf(SearchQueryDto)).toBeGreaterThan(MAX_REMEMBERED_BYTES / 2);
  });

  it('still holds every page of a walk over 2,000 list pages when the walk comes round again', () => {
    const memo = new ValidQueryMemo();
    const texts = Array.from({ length: 2_000 }, (_, i) => `page=${i + 1}`);
    for (const text of texts) memo.remember(PageQueryDto, text, new PageQueryDto());
    expect(texts.filter((text) => memo.get(PageQueryDto, text) === undefined)).toEqual([]);
  });
});
