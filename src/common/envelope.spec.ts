import { pageEnvelope, pageOffset } from './envelope';

describe('page envelope', () => {
  it('computes the offset of a one-based page', () => {
    expect(pageOffset(1, 20)).toBe(0);
    expect(pageOffset(3, 7)).toBe(14);
    expect(pageOffset(1_000_000, 20)).toBe(19_999_980);
  });

  it.each([
    [0, 20, 0],
    [1, 20, 1],
    [20, 20, 1],
    [21, 20, 2],
    [41, 1, 41],
  ])('total %i with limit %i gives %i pages', (total, perPage, pages) => {
    const { meta } = pageEnvelope({ items: [], page: 1, perPage, total }, 'r');
    expect(meta).toEqual({
      request_id: 'r',
      page: 1,
      per_page: perPage,
      total_results: total,
      total_pages: pages,
    });
  });
});
