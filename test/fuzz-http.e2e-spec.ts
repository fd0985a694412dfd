import fc from 'fast-check';
import { FIXTURE_TITLES } from './support/catalog-fixture';
import { type RawAnswer, rawConversation, rawRequest } from './support/raw-http';
import { type TestApp, createTestApp } from './support/test-app';

/**
 * Fuzzing the HTTP surface with raw requests. CI runs a seeded, bounded sample; the
 * full run is `FUZZ_RUNS=100000` (and `FUZZ_SEED` to explore other seeds). Every answer must be
 * 200 or a 4xx in the error envelope, with X-Request-Id by its rule and the rate-limit headers
 * exactly where the contract puts them; never a 5xx, never a hang.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 2_000);
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_123);
const PORT = Number(process.env.FUZZ_PORT ?? 4360);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ACCEPTED_REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;
const KEYED_ERROR_CODES = new Set([
  'VALIDATION_ERROR',
  'TITLE_NOT_FOUND',
  'RATE_LIMITED',
  'MONTHLY_QUOTA_EXCEEDED',
]);
const STATUS_OF: Record<string, number[]> = {
  VALIDATION_ERROR: [400, 408, 414, 431],
  MISSING_API_KEY: [401],
  INVALID_API_KEY: [401],
  API_KEY_DISABLED: [403],
  TITLE_NOT_FOUND: [404],
  ROUTE_NOT_FOUND: [404],
  RATE_LIMITED: [429],
  MONTHLY_QUOTA_EXCEEDED: [429],
};

/**
 * Headers the parser accepts with the head but that make the body unreadable: the request is routed
 * and answered, then the connection closes (its answer says `Connection: close` when it can).
 */
const BODY_REFUSED_AFTER_ROUTING = ['Transfer-Encoding: 5', 'Transfer-Encoding: gzip'];

interface FuzzRequest {
  method: string;
  target: string;
  authorization: string | null;
  requestId: string | null;
  extraHeaders: readonly string[];
}

/** Printable ASCII that may appear in a request target as it is. */
const TARGET_CHARS = [..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=:@/%"];
const ROUTES = [
  '/health',
  '/v1/search',
  '/v1/movies',
  '/v1/series',
  '/v1/titles/tt0111161',
  '/v1/titles/tt0000001',
];

function pathArbitrary(): fc.Arbitrary<string> {
  const route = fc.constantFrom(...ROUTES);
  const mutated = fc
    .tuple(
      route,
      fc.constantFrom('upper', 'flip', 'double', 'trailing', 'dot', 'dotdot', 'escaped', 'suffix'),
    )
    .map(([path, how]) => {
      switch (how) {
        case 'upper':
          return path.toUpperCase();
        case 'flip':
          return path.replace(/[a-z]/, (c) => c.toUpperCase());
        case 'double':
          return path.replace('/', '//');
        case 'trailing':
          return `${path}/`;
        case 'dot':
          return path.replace(/\/([^/]*)$/, '/./$1');
        case 'dotdot':
          return `${path}/../movies`;
        case 'escaped':
          return path.replace(/[a-z]/g, (c) => `%${c.charCodeAt(0).toString(16)}`);
        default:
          return `${path}%E0%A4`;
      }
    });
  const random = fc.string({ unit: fc.constantFrom(...TARGET_CHARS), maxLength: 40 }).map((s) => `/${s}`);
  const titleIds = fc
    .string({ unit: fc.constantFrom(...'tT0123456789%ZE'), maxLength: 30 })
    .map((s) => `/v1/titles/${s}`);
  const long = fc.constantFrom('/v1/titles/tt', '/', '/v1/search/').map((p) => p + '1'.repeat(10_000));
  return fc.oneof({ arbitrary: route, weight: 4 }, { arbitrary: mutated, weight: 3 }, random, titleIds, long);
}

function queryArbitrary(): fc.Arbitrary<string> {
  const name = fc.oneof(
    fc.constantFrom(
      'q',
      'page',
      'limit',
      'type',
      'year',
      'Q',
      'PAGE',
      'api_key',
      '__proto__',
      'constructor',
      '',
      'q[]',
    ),
    fc.string({ unit: fc.constantFrom(...'abcxyz_-%5B'), maxLength: 8 }),
  );
  const encoded = (value: string) => encodeURIComponent(value);
  const value = fc.oneof(
    {
      arbitrary: fc.constantFrom('1', '2', '20', '100', 'the', 'office', 'movie', 'tv_series', '2001'),
      weight: 6,
    },
    fc.constantFrom(
      '1',
      '0',
      '-1',
      '01',
      '+5',
      '1.5',
      '1e3',
      '0x10',
      '',
      ' 1',
      '100',
      '101',
      '1000001',
      '99999999999999999999',
    ),
    fc.constantFrom('movie', 'tv_series', 'episode', 'the', 'amelie', 'Amélie', 'the office', 'a\tb', '?!'),
    fc.string({ unit: 'grapheme', maxLength: 30 }).map(encoded),
    fc.string({ unit: 'binary', maxLength: 20 }).map(encoded),
    fc.string({ unit: fc.constantFrom(...'%0123456789ABCDEFZz+'), maxLength: 12 }),
    fc.constantFrom('%00', '%0A', '%0D%0A', '%7F', '%E0%A4', '%C3', '%', '%%', '%FF', '%ZZ'),
    fc.integer({ min: 0, max: 12_000 }).map((n) => 'x'.repeat(n)),
  );
  const known = fc.constantFrom('q=the', 'page=2', 'limit=5', 'type=movie', 'year=2001');
  const pair = fc
    .tuple(name, value, fc.boolean())
    .map(([n, v, bare]) => (bare && v === '' ? n : `${n}=${v}`));
  return fc
    .array(fc.oneof({ arbitrary: known, weight: 2 }, pair), { maxLength: 5 })
    .map((pairs) => (pairs.length === 0 ? '' : `?${pairs.join('&')}`));
}

function requestArbitrary(keys: { active: string; disabled: string }): fc.Arbitrary<FuzzRequest> {
  const headerSafe = fc.string({
    unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
    maxLength: 60,
  });
  const authorization = fc.oneof(
    { arbitrary: fc.constant(`Bearer ${keys.active}`), weight: 12 },
    fc.constantFrom(
      null,
      '',
      'Bearer',
      'Bearer ',
      `bearer ${keys.active}`,
      `BEARER   ${keys.active}`,
      ` Bearer ${keys.active} `,
      `Bearer ${keys.active}x`,
      `Bearer ${keys.disabled}`,
      `Basic ${keys.active}`,
      keys.active,
    ),
    headerSafe,
    headerSafe.map((s) => `Bearer mov_live_${s}`),
    fc.constant(`Bearer mov_live_${'A'.repeat(20_000)}`),
  );
  const requestId = fc.oneof(
    fc.constant(null),
    fc.string({ unit: fc.constantFrom(...'abcXYZ019._-'), minLength: 1, maxLength: 140 }),
    headerSafe,
    fc.constantFrom('', ' ', 'a b', 'ünï', 'a'.repeat(128), 'a'.repeat(129), ' padded '),
  );
  const extraHeaders = fc.oneof(
    { arbitrary: fc.constant<readonly string[]>([]), weight: 20 },
    fc.constant([`X-Big: ${'b'.repeat(20_000)}`]),
    fc.constant(['Content-Length: 5', 'Content-Type: application/json']),
    fc.constant(['X-RateLimit-Limit: 1']),
    fc.constantFrom(['Expect: foo'], ['Expect: 200-ok'], ['Expect: ']),
    fc.constantFrom(...BODY_REFUSED_AFTER_ROUTING.map((h) => [h]), ['Transfer-Encoding: chunked, x']),
  );
  return fc.record({
    method: fc.oneof(
      { arbitrary: fc.constant('GET'), weight: 12 },
      { arbitrary: fc.constant('HEAD'), weight: 3 },
      fc.constantFrom('get', 'POST', 'OPTIONS', 'DELETE', 'Get'),
    ),
    target: fc
      .tuple(pathArbitrary(), fc.oneof({ arbitrary: fc.constant(''), weight: 2 }, queryArbitrary()))
      .map(([path, query]) => path + query),
    authorization,
    requestId,
    extraHeaders,
  });
}

/**
 * A request whose body the parser may refuse after routing: every byte the server
 * sends is read until it closes, so a second, unsolicited answer is caught.
 */
async function onlyAnswer(request: FuzzRequest): Promise<RawAnswer> {
  const { answers, closed } = await rawConversation(PORT, encodeRequest(request), 5_000, {
    head: request.method === 'HEAD',
  });
  if (answers.length !== 1) throw new Error(`${answers.length} answers to one request`);
  if (!closed) throw new Error('the connection stayed open after a body the server could not read');
  return answers[0];
}

function encodeRequest(request: FuzzRequest): Buffer {
  const lines = [`${request.method} ${request.target} HTTP/1.1`, 'Host: localhost'];
  if (request.authorization !== null) lines.push(`Authorization: ${request.authorization}`);
  if (request.requestId !== null) lines.push(`X-Request-Id: ${request.requestId}`);
  lines.push(...request.extraHeaders);
  const body = request.extraHeaders.some((h) => h.startsWith('Content-Length')) ? '{"a":' : '';
  return Buffer.from(`${lines.join('\r\n')}\r\n\r\n${body}`, 'utf8');
}

/** Why an answer breaks the contract, or null. */
function violation(request: FuzzRequest, answer: RawAnswer): string | null {
  const id = answer.headers['x-request-id'];
  if (!id) return 'no X-Request-Id';
  if (answer.status >= 500) return `status ${answer.status}`;
  // Answers written before routing (by the server's `clientError` hook) carry no Date header; every
  // routed answer does. (Connection: close no longer tells them apart: a routed request that
  // carries a body is answered with it too.)
  const refusedBeforeRouting = answer.headers.date === undefined;
  const supplied = request.requestId?.trim() ?? '';
  const expectEcho =
    !refusedBeforeRouting &&
    ACCEPTED_REQUEST_ID.test(supplied) &&
    Buffer.byteLength(supplied) === supplied.length;
  if (expectEcho ? id !== supplied : !UUID.test(id))
    return `X-Request-Id ${id} for ${JSON.stringify(request.requestId)}`;
  const rateLimited = answer.headers['x-ratelimit-limit'] !== undefined;
  if (request.method === 'HEAD' && !refusedBeforeRouting) {
    if (answer.body !== '') return 'a body on HEAD';
    return null;
  }
  let body: {
    data?: Array<Record<string, unknown>>;
    meta?: { request_id?: string };
    error?: Record<string, unknown>;
  };
  try {
    body = JSON.parse(answer.body);
  } catch {
    return `a body that is not JSON: ${answer.body.slice(0, 60)}`;
  }
  if (answer.status === 200) {
    if (!Array.isArray(body.data) || body.meta?.request_id !== id) return 'a 200 without the envelope';
    // The public 200 in the envelope: /health (a health record).
    const isPublic = body.data[0] !== undefined && 'environment' in body.data[0];
    if (isPublic === rateLimited)
      return `rate-limit headers ${rateLimited ? 'on a public route' : 'missing'}`;
    return null;
  }
  const error = body.error as { code?: string; message?: unknown; request_id?: unknown } | undefined;
  if (
    !error ||
    Object.keys(body).length !== 1 ||
    Object.keys(error).sort().join() !== 'code,message,request_id'
  ) {
    return `not the error envelope: ${answer.body.slice(0, 80)}`;
  }
  if (error.request_id !== id || typeof error.message !== 'string')
    return 'request_id differs from the header';
  if (!STATUS_OF[error.code ?? '']?.includes(answer.status)) return `${answer.status} with ${error.code}`;
  const expectRateLimit = !refusedBeforeRouting && KEYED_ERROR_CODES.has(error.code ?? '');
  if (rateLimited !== expectRateLimit)
    return `rate-limit headers ${rateLimited ? 'present' : 'missing'} on ${error.code}`;
  if (rateLimited && answer.headers['x-ratelimit-remaining'] === undefined)
    return 'X-RateLimit-Remaining missing';
  return null;
}

describe('fuzzing the HTTP surface', () => {
  let t: TestApp;
  let disabled: string;

  beforeAll(async () => {
    t = await createTestApp();
    await t.writer.replaceCatalog({ titles: FIXTURE_TITLES });
    const off = await t.apiKeys.create({ name: 'off', rpm: 1_000_000, monthlyQuota: 1_000_000_000 });
    await t.apiKeys.setDisabled(off.summary.id, true);
    disabled = off.key;
    await t.app.listen(PORT, '127.0.0.1');
  });
  afterAll(() => t.close());

  it(`answers ${RUNS} generated requests (seed ${SEED}) within the contract`, async () => {
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(requestArbitrary({ active: t.key, disabled }), async (request) => {
        const answer = request.extraHeaders.some((h) => h.startsWith('Transfer-Encoding'))
          ? await onlyAnswer(request)
          : await rawRequest(PORT, encodeRequest(request), 10_000, { head: request.method === 'HEAD' });
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        const problem = violation(request, answer);
        if (problem)
          throw new Error(
            `${problem}\n${answer.status} ${JSON.stringify(answer.headers)} ${answer.body.slice(0, 200)}`,
          );
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: false },
    );
    console.info(
      `fuzzed ${RUNS} requests (seed ${SEED}): ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`,
    );
    for (const status of [200, 400, 401, 403, 404]) expect(statuses.get(status)).toBeGreaterThan(0);
    // 2,000 requests, some waiting for the server to close: ~40 s on a quiet machine, more on a busy one.
  }, 240_000);
});
