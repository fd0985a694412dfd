import { escapeUndecodableSegments } from './path-escapes.middleware';

describe('escapeUndecodableSegments', () => {
  it.each([
    ['/v1/titles/%ZZ', '/v1/titles/%25ZZ'],
    ['/v1%E0%A4', '/v1%25E0%25A4'],
    ['/favicon.ico%E0%A4?x=%ZZ', '/favicon.ico%25E0%25A4?x=%ZZ'],
    ['/v1/titles/tt%31%', '/v1/titles/tt%2531%25'],
  ])('escapes the %% of a segment that does not decode: %s', (url, expected) => {
    expect(escapeUndecodableSegments(url)).toBe(expected);
    expect(() => decodeURIComponent(expected.split('?')[0])).not.toThrow();
  });

  it.each(['/v1/titles/tt0111161', '/v1/titles/tt%30111161', '/v1/search?q=%ZZ', '/', '/v1/%C3%A9'])(
    'leaves %s alone',
    (url) => {
      expect(escapeUndecodableSegments(url)).toBe(url);
    },
  );
});
