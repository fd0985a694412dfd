import { request } from 'node:http';
import { type RunningServer, startServer } from './support/startup-process';
import { createServedDatabase, databaseEnvironment } from './support/served-database';
import type { TestDatabase } from './support/test-database';
import { eventually } from './support/timing';

/** A GET of /health from 127.0.0.1 with `headers`; the answer's headers. */
function health(server: RunningServer, headers: Record<string, string>) {
  return new Promise<Record<string, string | string[] | undefined>>((resolve, reject) => {
    request(`${server.url}/health`, { headers, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.headers));
    })
      .on('error', reject)
      .end();
  });
}

/** The access line of request `id`, once the server has written it (after its answer was sent). */
function accessLine(server: RunningServer, id: string) {
  return server
    .stdout()
    .split('\n')
    .slice(0, -1) // whole lines only: the last may be half written
    .filter((text) => text.startsWith('{'))
    .map((text) => JSON.parse(text) as { msg: string; req?: { id: string; remoteAddress?: string } })
    .find((entry) => entry.msg === 'request completed' && entry.req?.id === id);
}

/**
 * The client address the access line of request `id` settled on. The line reaches us through the
 * server's stdout some time after the answer did: wait for it (10 s) rather than for a fixed time.
 */
async function loggedAddress(server: RunningServer, id: string): Promise<string | undefined> {
  await eventually(async () => accessLine(server, id) !== undefined, 10_000, 50).catch(() => undefined);
  return accessLine(server, id)?.req?.remoteAddress;
}

/** Headers a client forges to look like another client that came over HTTPS. */
const FORGED = { 'X-Forwarded-For': '198.51.100.9, 203.0.113.7', 'X-Forwarded-Proto': 'https' };

/**
 * TRUST_PROXY decides whose X-Forwarded-For/-Proto are believed. The test's requests come
 * from 127.0.0.1, which plays the proxy when trusted and the client otherwise.
 */
describe('TRUST_PROXY with forged X-Forwarded-* headers', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createServedDatabase();
  });
  afterAll(() => database.drop());

  async function withServer(trustProxy: string | undefined, work: (server: RunningServer) => Promise<void>) {
    const env = { ...databaseEnvironment(database), LOG_LEVEL: 'info', APP_ENV: 'test' };
    const server = await startServer(trustProxy === undefined ? env : { ...env, TRUST_PROXY: trustProxy });
    try {
      await work(server);
    } finally {
      await server.stop();
    }
  }

  it('off (the default): the peer is the client and plain HTTP stays plain', async () => {
    await withServer(undefined, async (server) => {
      const headers = await health(server, { ...FORGED, 'X-Request-Id': 'forged-off' });
      expect(headers['strict-transport-security']).toBeUndefined();
      expect(await loggedAddress(server, 'forged-off')).toBe('127.0.0.1');
    });
  });

  it('an address list without the peer: forged headers are ignored', async () => {
    await withServer('10.0.0.0/8, 192.168.0.1', async (server) => {
      const headers = await health(server, { ...FORGED, 'X-Request-Id': 'forged-untrusted' });
      expect(headers['strict-transport-security']).toBeUndefined();
      expect(await loggedAddress(server, 'forged-untrusted')).toBe('127.0.0.1');
    });
  });

  it('the peer trusted by address: its X-Forwarded-Proto brings HSTS, the client is the nearest untrusted address', async () => {
    await withServer('loopback', async (server) => {
      const forwarded = await health(server, { ...FORGED, 'X-Request-Id': 'trusted-https' });
      expect(forwarded['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
      const plain = await health(server, {
        'X-Forwarded-For': '203.0.113.8',
        'X-Request-Id': 'trusted-http',
      });
      expect(plain['strict-transport-security']).toBeUndefined();
      expect(await loggedAddress(server, 'trusted-https')).toBe('203.0.113.7');
      expect(await loggedAddress(server, 'trusted-http')).toBe('203.0.113.8');
    });
  });

  it('one trusted hop: an address the client put further left cannot pose as the client', async () => {
    await withServer('1', async (server) => {
      await health(server, { ...FORGED, 'X-Request-Id': 'one-hop' });
      expect(await loggedAddress(server, 'one-hop')).toBe('203.0.113.7');
    });
  });
});
