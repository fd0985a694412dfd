import { REDACTED, redactUrl } from './redact-url';

const KEY = `mov_live_${'Ab3_-'.repeat(9)}`;

describe('redactUrl', () => {
  it.each([
    [`/v1/titles/tt1?api_key=${KEY}`, `/v1/titles/tt1?api_key=${REDACTED}`],
    ['/v1/movies?page=2&token=abc&limit=5', `/v1/movies?page=2&token=${REDACTED}&limit=5`],
    ['/v1/movies?KEY=abc', `/v1/movies?KEY=${REDACTED}`],
    ['/v1/movies?access%5Ftoken=abc', `/v1/movies?access%5Ftoken=${REDACTED}`],
    ['/v1/movies?Authorization=Bearer+abc', `/v1/movies?Authorization=${REDACTED}`],
    [`/v1/search?q=${KEY}`, `/v1/search?q=${REDACTED}`],
    [`/v1/titles/${KEY}`, `/v1/titles/${REDACTED}`],
    [`/v1/search?q=mov%5Flive%5F${'x'.repeat(43)}`, `/v1/search?q=${REDACTED}`],
  ])('redacts %s', (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });

  it.each(['/v1/search?q=the+office&page=2', '/health', '/v1/movies?', '/v1/movies?flag&page=%ZZ'])(
    'leaves %s as it is',
    (url) => {
      expect(redactUrl(url)).toBe(url);
    },
  );
});
