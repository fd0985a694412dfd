import { LOGGED_URL_MAX, REDACTED, loggedUrl, redactUrl } from './redact-url';

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

describe('loggedUrl', () => {
  const secret = KEY.slice('mov_live_'.length);
  /** No 6 characters of the key's secret part appear. */
  const showsNoKey = (text: string) =>
    Array.from({ length: secret.length - 5 }, (_, i) => secret.slice(i, i + 6)).every(
      (fragment) => !text.includes(fragment),
    );

  it('keeps a URL up to the limit as redactUrl gives it', () => {
    const url = `/v1/titles/tt${'1'.repeat(LOGGED_URL_MAX - 13)}`;
    expect(loggedUrl(url)).toBe(url);
    expect(loggedUrl(`/v1/search?q=${KEY}`)).toBe(`/v1/search?q=${REDACTED}`);
  });

  it('cuts a longer one at the limit', () => {
    const url = `/v1/titles/tt${'1'.repeat(12_000)}`;
    expect(loggedUrl(url)).toBe(url.slice(0, LOGGED_URL_MAX));
  });

  // A key cut at the limit: its prefix, or its prefix and part of its secret, at the end of the text.
  it.each([
    ['plain', KEY],
    ['escaped', KEY.replace(/_/g, '%5F')],
    ['every character escaped', [...KEY].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('')],
  ])('leaves no part of a %s key that runs across the cut', (_, key) => {
    for (let at = LOGGED_URL_MAX - key.length - 2; at <= LOGGED_URL_MAX + 2; at++) {
      const path = `/v1/titles/tt${'1'.repeat(at - 13)}`;
      const logged = loggedUrl(`${path}${key}${'2'.repeat(2_000)}`);
      expect(logged.length).toBeLessThanOrEqual(LOGGED_URL_MAX);
      expect(showsNoKey(logged)).toBe(true);
      expect(logged).not.toMatch(/mov(_|%5f)live(_|%5f)[a-z0-9]/i);
    }
  });

  it('redacts a credential parameter whose value runs across the cut', () => {
    const logged = loggedUrl(`/v1/movies?page=${'1'.repeat(LOGGED_URL_MAX - 30)}&token=${'s'.repeat(100)}`);
    expect(logged).not.toContain('sss');
  });

  it('never ends in half a surrogate pair', () => {
    const logged = loggedUrl(`/v1/search?q=${'a'.repeat(LOGGED_URL_MAX - 14)}\u{1F600}${'b'.repeat(10)}`);
    expect(logged.length).toBe(LOGGED_URL_MAX - 1);
    expect(logged.endsWith('a')).toBe(true);
  });
});
