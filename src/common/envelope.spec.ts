import { ByteString, EnvelopeBytes, pageMeta, pageOffset, pageSlice } from './envelope';

/**
 * The bytes an answer goes out as (`latin1`: each character one byte), checked to be bytes at all (a
 * character beyond 0xFF would lose its high bits) and against the length it claims.
 */
function utf8Of(answer: ByteString): Buffer {
  expect([...answer.bytes].every((character) => character.charCodeAt(0) <= 0xff)).toBe(true);
  const bytes = Buffer.from(answer.bytes, 'latin1');
  expect(bytes.length).toBe(answer.byteLength);
  return bytes;
}

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
    expect(pageMeta({ page: 1, perPage, total })).toEqual({
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

  const fields = pageMeta({ page: 2, perPage: 2, total: 5 });

  it('writes a page as the UTF-8 of what JSON.stringify writes of the same envelope object', () => {
    const answer = EnvelopeBytes.page(
      items.map((item) => JSON.stringify(item)),
      fields,
    ).withRequestId(requestId);
    const expected = JSON.stringify({ data: items, meta: { request_id: requestId, ...fields } });
    expect(utf8Of(answer).equals(Buffer.from(expected, 'utf8'))).toBe(true);
  });

  it('writes one item as JSON.stringify writes the same envelope object, each request with its own id', () => {
    const envelope = EnvelopeBytes.item(JSON.stringify(items[1]));
    for (const id of [requestId, 'a', '0f8c2b1e-5f0a-4c1e-9d55-3f2b7a9c1d20'])
      expect(utf8Of(envelope.withRequestId(id)).toString('utf8')).toBe(
        JSON.stringify({ data: [items[1]], meta: { request_id: id } }),
      );
    expect(envelope.byteLength).toBe(
      Buffer.byteLength(JSON.stringify({ data: [items[1]], meta: { request_id: '' } })) - 2,
    );
  });

  it('writes an item an item envelope holds into a page as its JSON text would be', () => {
    const fromEnvelopes = EnvelopeBytes.page(
      items.map((item) => EnvelopeBytes.item(JSON.stringify(item))),
      fields,
    );
    const fromTexts = EnvelopeBytes.page(
      items.map((item) => JSON.stringify(item)),
      fields,
    );
    expect(utf8Of(fromEnvelopes.withRequestId('r'))).toEqual(utf8Of(fromTexts.withRequestId('r')));
    expect(Buffer.from(EnvelopeBytes.item(JSON.stringify(items[0])).itemBytes()).toString()).toBe(
      JSON.stringify(items[0]),
    );
  });

  it('writes an empty page as an empty array', () => {
    const text = utf8Of(
      EnvelopeBytes.page([], pageMeta({ page: 9, perPage: 20, total: 0 })).withRequestId('r'),
    ).toString();
    expect(JSON.parse(text)).toEqual({
      data: [],
      meta: { request_id: 'r', page: 9, per_page: 20, total_results: 0, total_pages: 0 },
    });
  });

  it('holds any text as its UTF-8 bytes, one byte a character, whatever characters it has', () => {
    for (const item of items) {
      const envelope = EnvelopeBytes.item(JSON.stringify(item));
      expect(utf8Of(envelope.withRequestId('r')).toString('utf8')).toBe(
        JSON.stringify({ data: [item], meta: { request_id: 'r' } }),
      );
      expect(envelope.byteLength).toBe(
        Buffer.byteLength(JSON.stringify({ data: [item], meta: { request_id: '' } })) - 2,
      );
    }
  });

  it('writes a request id beyond printable ASCII as its UTF-8 bytes, as JSON.stringify writes it', () => {
    const envelope = EnvelopeBytes.item(JSON.stringify(items[1]));
    for (const id of ['é-1', '東\u2028\n"'])
      expect(utf8Of(envelope.withRequestId(id)).toString('utf8')).toBe(
        JSON.stringify({ data: [items[1]], meta: { request_id: id } }),
      );
  });
});
