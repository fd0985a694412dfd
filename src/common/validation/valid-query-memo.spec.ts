import { PageQueryDto } from '../../catalog/dto/page-query.dto';
import { SearchQueryDto } from '../../catalog/dto/search-query.dto';
import { MAX_REMEMBERED_QUERIES, MAX_REMEMBERED_QUERY_LENGTH, ValidQueryMemo } from './valid-query-memo';

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

  it('does not keep a text longer than its bound, and lets the oldest go beyond its count', () => {
    const memo = new ValidQueryMemo();
    const long = `page=${'0'.repeat(MAX_REMEMBERED_QUERY_LENGTH)}1`;
    expect(Object.isFrozen(memo.remember(PageQueryDto, long, new PageQueryDto()))).toBe(true);
    expect(memo.get(PageQueryDto, long)).toBeUndefined();
    for (let i = 0; i <= MAX_REMEMBERED_QUERIES; i++)
      memo.remember(PageQueryDto, `page=${i}`, new PageQueryDto());
    expect(memo.get(PageQueryDto, 'page=0')).toBeUndefined();
    expect(memo.get(PageQueryDto, 'page=1')).toBeDefined();
    expect(memo.get(PageQueryDto, `page=${MAX_REMEMBERED_QUERIES}`)).toBeDefined();
  });

  it('still holds every page of a walk over 2,000 list pages when the walk comes round again', () => {
    const memo = new ValidQueryMemo();
    const texts = Array.from({ length: 2_000 }, (_, i) => `page=${i + 1}`);
    for (const text of texts) memo.remember(PageQueryDto, text, new PageQueryDto());
    expect(texts.filter((text) => memo.get(PageQueryDto, text) === undefined)).toEqual([]);
  });
});
