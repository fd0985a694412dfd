import {
  itemEnvelopeJson,
  jsonArray,
  jsonArrayBytes,
  pageEnvelopeBytes,
  pageMeta,
  pageOffset,
  pageSlice,
} from './envelope';

describe('envelopes', () => {
  it('computes the offset of a one-based page', () => {
    expect(pageOffset(1, 20)).toBe(0);
    expect(pageOffset(3, 7)).toBe(14);
    expect(pageOffset(1_000_000, 20)).toBe(19_999_980);
  });

  it('slices a one-based page: its size from its offset', () => {
    expect(pageSlice(3, 7)).toEqual({ limit: 7, offset: 14 });
  });

  it.each([
    [0, 20, 0],
    [1, 20, 1],
    [20, 20, 1],
    [21, 20, 2],
    [41, 1, 41],
  ])('total %i with limit %i gives %i pages', (total, perPage, pages) => {
    expect(pageMeta({ page: 1, perPage, total }, 'r')).toEqual({
      request_id: 'r',
      page: 1,
      per_page: perPage,
      total_results: total,
      total_pages: pages,
    });
  });

  const items = [
    { id: 1, title: 'Amélie "quoted"', genres: ['Comedy'], ratings: { average: 8.3, votes: 1 } },
    { id: 2, title: '東京物語 \u2028 \\ end', genres: null, ratings: { average: 0, votes: 0 } },
  ];
  const requestId = 'req-1_"odd"';

  it('writes a page as the UTF-8 of what JSON.stringify writes of the same envelope object', () => {
    const bytes = pageEnvelopeBytes(
      { items: jsonArrayBytes(items.map((item) => JSON.stringify(item))), page: 2, perPage: 2, total: 5 },
      requestId,
    );
    const expected = JSON.stringify({
      data: items,
      meta: { request_id: requestId, page: 2, per_page: 2, total_results: 5, total_pages: 3 },
    });
    expect(bytes.equals(Buffer.from(expected, 'utf8'))).toBe(true);
  });

  it("keeps a page's items in a buffer of their own, not a slice of Node's pool", () => {
    const bytes = jsonArrayBytes(['{"id":1}']);
    expect(bytes.byteOffset).toBe(0);
    expect(bytes.buffer.byteLength).toBe(bytes.byteLength);
    expect(Buffer.from(bytes).toString()).toBe(jsonArray(['{"id":1}']));
  });

  it('writes an empty page as an empty array', () => {
    const text = pageEnvelopeBytes(
      { items: jsonArrayBytes([]), page: 9, perPage: 20, total: 0 },
      'r',
    ).toString();
    expect(JSON.parse(text)).toEqual({
      data: [],
      meta: { request_id: 'r', page: 9, per_page: 20, total_results: 0, total_pages: 0 },
    });
  });

  it('writes one item as JSON.stringify writes the same envelope object', () => {
    expect(itemEnvelopeJson(JSON.stringify(items[1]), requestId)).toBe(
      JSON.stringify({ data: [items[1]], meta: { request_id: requestId } }),
    );
  });
});
