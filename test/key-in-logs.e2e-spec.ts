import { freePort } from './support/free-port';
import { rawRequest } from './support/raw-http';
import { ServerProcess } from './support/server-process';
import { SERVED_IDS, seedServedCatalog } from './support/served-catalog';
import { createServedDatabase, databaseEnvironment } from './support/served-database';
import type { TestDatabase } from './support/test-database';

const PREFIX = 'mov_live_';

/** Every character percent-escaped, hex digits in the given case. */
const escapeAll = (text: string, upper = false) =>
  [...text]
    .map((char) => `%${char.charCodeAt(0).toString(16).padStart(2, '0')}`)
    .map((escape) => (upper ? escape.toUpperCase() : escape))
    .join('');

/** The key in each encoding a URL can carry it in. */
function urlEncodings(key: string): Record<string, string> {
  const secret = key.slice(PREFIX.length);
  return {
    plain: key,
    'escaped underscores (lower-case hex)': key.replace(/_/g, '%5f'),
    'escaped underscores (upper-case hex)': key.replace(/_/g, '%5F'),
    'escaped letters': `%6Dov_%6Cive_${escapeAll(secret.slice(0, 3))}${secret.slice(3)}`,
    'every character escaped': escapeAll(key),
    'every character escaped, upper-case hex': escapeAll(key, true),
    'mixed-case escapes': `%6do%76%5F%4Cive%5f${escapeAll(secret.slice(0, 4), true)}${secret.slice(4)}`,
    'escaped twice': escapeAll(key).replace(/%/g, '%25'),
  };
}

/** Percent-escapes decoded until none is left (`+` as a space), as a reader of the log might. */
function decodeFully(text: string): string {
  let decoded = text;
  for (let previous = ''; previous !== decoded;) {
    previous = decoded;
    decoded = decoded
      .replace(/\+/g, ' ')
      .replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  }
  return decoded;
}

/** Every run of 12 characters of the key's secret part. */
function secretFragments(key: string): string[] {
  const secret = key.slice(PREFIX.length);
  return Array.from({ length: secret.length - 11 }, (_, i) => secret.slice(i, i + 12));
}

/**
 * No log line holds a key, whatever carried it: each header, the path, the query in each encoding,
 * the request id (echoed to the client by the contract, never logged), the method, the body. Every
 * line written at LOG_LEVEL=debug is decoded and searched for any 12 characters of the secret.
 */
describe('a key sent anywhere never reaches the log', () => {
  let database: TestDatabase;
  let server: ServerProcess;
  let key: string;

  beforeAll(async () => {
    database = await createServedDatabase();
    ({ key } = await seedServedCatalog(database.config));
    // TRUST_PROXY: X-Forwarded-For then decides the client address the access line logs.
    server = await ServerProcess.start(await freePort(), {
      ...databaseEnvironment(database),
      LOG_LEVEL: 'debug',
      TRUST_PROXY: 'loopback',
    });
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
    await database?.drop();
  });

  it('greps every debug log line for the key after sending it in every place', async () => {
    const id = SERVED_IDS[0];
    const bearer = { authorization: `Bearer ${key}` };
    const statuses: number[] = [];
    const get = async (path: string, headers: Record<string, string> = {}) => {
      statuses.push((await server.get(path, headers)).status);
    };

    // The request id: accepted (52+ characters of the allowed set) and echoed, as the contract says.
    const echoed = await server.get(`/v1/titles/${id}`, { ...bearer, 'x-request-id': key });
    expect(echoed.headers['x-request-id']).toBe(key);
    expect(JSON.parse(echoed.body).meta.request_id).toBe(key);
    await get('/v1/titles/tt0', { ...bearer, 'x-request-id': key });
    await get('/nope', { 'x-request-id': key });
    await get('/health', { 'x-request-id': key });

    // Each header a client may set, on a route that answers and on one that refuses.
    const headers = [
      'authorization',
      'proxy-authorization',
      'x-api-key',
      'api-key',
      'cookie',
      'user-agent',
      'referer',
      'origin',
      'x-forwarded-for',
      'x-forwarded-proto',
      'x-forwarded-host',
      'forwarded',
      'x-real-ip',
      'if-none-match',
      'accept',
      'accept-language',
      'content-type',
      'x-custom',
    ];
    for (const name of headers) {
      await get(`/v1/titles/${id}`, { ...(name === 'authorization' ? {} : bearer), [name]: key });
      await get(`/v1/movies?page=0`, { ...(name === 'authorization' ? {} : bearer), [name]: key });
    }
    await get(`/v1/titles/${id}`, { ...bearer, 'x-forwarded-for': `${key}, 10.0.0.1` });
    await get(`/v1/titles/${id}`, { ...bearer, [key]: '1' });
    await get('/v1/movies', { authorization: `bearer ${key}` });
    await get('/v1/movies', { authorization: key });
    await get('/v1/movies', { authorization: `Basic ${Buffer.from(`user:${key}`).toString('base64')}` });

    // The path and the query, in each encoding.
    for (const encoded of Object.values(urlEncodings(key))) {
      await get(`/v1/titles/${encoded}`, bearer);
      await get(`/v1/titles/${encoded}`);
      await get(`/${encoded}`);
      await get(`/v1/${encoded}/movies`, bearer);
      for (const name of ['q', 'api_key', 'x', encoded]) {
        await get(`/v1/search?${name}=${encoded}`, bearer);
        await get(`/v1/search?q=the+${encoded}+office&page=1`, bearer);
        await get(`/v1/movies?page=1&${name}=${encoded}`, bearer);
        await get(`/v1/movies?${name}=${encoded}`);
      }
      await get(`/v1/movies?page=${encoded}`, bearer);
      await get(`/v1/movies?page=1&page=${encoded}`, bearer);
    }

    // What Node's parser refuses, and a body no route reads.
    const raw = async (bytes: string) => statuses.push((await rawRequest(server.port, bytes)).status);
    await raw(`${key} /v1/movies HTTP/1.1\r\nHost: x\r\n\r\n`);
    await raw(`GET /v1/movies?q=${key} HTTP/1.1\r\nHost: x\r\nX-Pad: ${'a'.repeat(20_000)}\r\n\r\n`);
    await raw(`GET /v1/${key} HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nTransfer-Encoding: ${key}\r\n\r\n`);
    await raw(`POST /v1/movies HTTP/1.1\r\nHost: x\r\nContent-Length: ${key.length}\r\n\r\n${key}`);
    await raw(`GET /v1/movies HTTP/1.1\r\nHost: ${key}\r\nAuthorization: Bearer ${key}\r\n\r\n`);

    for (const status of [200, 304, 400, 401, 404, 431]) {
      if (status !== 304) expect(statuses).toContain(status);
    }
    const lines = server.logs().split('\n').filter(Boolean);
    // Debug lines were written, and the access lines of every request.
    expect(lines.some((line) => line.includes('"level":20'))).toBe(true);
    expect(lines.filter((line) => line.includes('"request '))).not.toHaveLength(0);
    const fragments = secretFragments(key);
    const leaking = lines.filter((line) => {
      const decoded = decodeFully(line);
      return fragments.some((fragment) => decoded.includes(fragment));
    });
    expect(leaking).toEqual([]);
    // The key-bearing values were logged, redacted.
    expect(lines.some((line) => line.includes('[REDACTED]'))).toBe(true);
  });
});
