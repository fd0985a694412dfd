import { request as httpRequest } from 'node:http';
import { type Agent, request as httpsRequest } from 'node:https';
import https from 'node:https';
import type { TLSSocket } from 'node:tls';
import { SERVED_IDS, seedServedCatalog } from './support/served-catalog';
import { createServedDatabase, databaseEnvironment } from './support/served-database';
import { type RunningServer, runServerToExit, startServer } from './support/startup-process';
import { freePort } from './support/free-port';
import type { TestDatabase } from './support/test-database';
import { eventually } from './support/timing';
import { type SelfSigned, TlsFiles } from './support/tls-files';

interface TlsAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** The certificate the server presented. */
  fingerprint: string;
  protocol: string | null;
}

/** A GET over HTTPS trusting `ca`; on its own connection unless `agent` keeps one. */
function httpsGet(
  url: string,
  options: { ca: string[]; headers?: Record<string, string>; agent?: Agent; maxVersion?: 'TLSv1.1' },
): Promise<TlsAnswer> {
  return new Promise((resolve, reject) => {
    httpsRequest(
      url,
      {
        ca: options.ca,
        headers: options.headers,
        agent: options.agent ?? false,
        maxVersion: options.maxVersion,
      },
      (res) => {
        const socket = res.socket as TLSSocket;
        const fingerprint = socket.getPeerCertificate().fingerprint256;
        const protocol = socket.getProtocol();
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
            fingerprint,
            protocol,
          }),
        );
        res.on('error', reject);
      },
    )
      .on('error', reject)
      .end();
  });
}

/** Plain HTTP to `port`: what came back, or the socket error. */
function plainGet(port: number, path: string): Promise<{ status?: number; error?: string }> {
  return new Promise((resolve) => {
    httpRequest({ host: '127.0.0.1', port, path, agent: false, timeout: 5_000 }, (res) => {
      res.resume();
      resolve({ status: res.statusCode });
    })
      .on('timeout', () => resolve({ error: 'timeout' }))
      .on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }))
      .end();
  });
}

function expectSecurityHeaders(answer: TlsAnswer): void {
  expect(answer.headers['x-content-type-options']).toBe('nosniff');
  expect(answer.headers['referrer-policy']).toBe('no-referrer');
  expect(
    String(answer.headers['content-security-policy'])
      .split(';')
      .map((directive) => directive.trim()),
  ).toEqual(["default-src 'none'", "frame-ancestors 'none'"]);
  expect(answer.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
}

/**
 * TLS in the process (`TLS_CERT_FILE`, `TLS_KEY_FILE`) on a built server, with
 * self-signed certificates made here by openssl. PostgreSQL only: TLS does not depend on the engine,
 * and loading the served catalog with the CLI into an embedded database takes minutes here.
 */
describe('HTTPS on the API port', () => {
  const files = new TlsFiles();
  let first: SelfSigned;
  let renewed: SelfSigned;
  let database: TestDatabase;
  let auth: Record<string, string>;

  beforeAll(async () => {
    first = files.selfSigned('first');
    renewed = files.selfSigned('renewed');
    files.serve(first);
    database = await createServedDatabase();
    auth = { Authorization: `Bearer ${(await seedServedCatalog(database.config)).key}` };
  }, 120_000);
  afterAll(async () => {
    await database?.drop();
    files.cleanup();
  });

  describe('a server with a certificate', () => {
    let server: RunningServer;
    let metricsPort: number;
    let port: number;

    beforeAll(async () => {
      metricsPort = await freePort();
      server = await startServer({
        ...databaseEnvironment(database),
        TLS_CERT_FILE: files.certFile,
        TLS_KEY_FILE: files.keyFile,
        METRICS_PORT: String(metricsPort),
        LOG_LEVEL: 'info',
      });
      port = Number(new URL(server.url).port);
    }, 120_000);
    afterAll(() => server?.stop());

    it('says it listens on https://', () => {
      expect(server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    });

    it('answers the API and /health over TLS 1.2+, with the security headers', async () => {
      const title = await httpsGet(`${server.url}/v1/titles/${SERVED_IDS[0]}`, {
        ca: [first.cert],
        headers: auth,
      });
      expect(title.status).toBe(200);
      expect(JSON.parse(title.body).data[0].imdb_id).toBe(SERVED_IDS[0]);
      expectSecurityHeaders(title);
      expect(title.headers['cache-control']).toBe('private, max-age=0, must-revalidate');
      expect(['TLSv1.2', 'TLSv1.3']).toContain(title.protocol);

      const health = await httpsGet(`${server.url}/health`, { ca: [first.cert] });
      expect(health.status).toBe(200);
      expectSecurityHeaders(health);
      expect(health.headers['cache-control']).toBe('no-store');

      const refused = await httpsGet(`${server.url}/v1/titles/${SERVED_IDS[0]}`, { ca: [first.cert] });
      expect(refused.status).toBe(401);
      expectSecurityHeaders(refused);
      expect(refused.headers['cache-control']).toBe('no-store');
    });

    it('refuses TLS 1.1', async () => {
      await expect(
        httpsGet(`${server.url}/health`, { ca: [first.cert], maxVersion: 'TLSv1.1' }),
      ).rejects.toThrow();
    });

    it('refuses plain HTTP on the TLS port by closing the connection, and goes on serving', async () => {
      const started = Date.now();
      const plain = await plainGet(port, '/health');
      expect(plain.status).toBeUndefined();
      expect(plain.error).toMatch(/ECONNRESET|socket hang up/);
      expect(Date.now() - started).toBeLessThan(3_000);
      expect((await httpsGet(`${server.url}/health`, { ca: [first.cert] })).status).toBe(200);
      expect(server.stderr()).toBe('');
    });

    it('keeps the metrics port plain HTTP', async () => {
      expect(await plainGet(metricsPort, '/metrics')).toEqual({ status: 200 });
    });

    it('serves renewed certificate files to new connections, without a failed request', async () => {
      const ca = [first.cert, renewed.cert];
      const keptAlive = new https.Agent({ keepAlive: true, maxSockets: 1, ca });
      const before = await httpsGet(`${server.url}/health`, { ca, agent: keptAlive });
      expect(before.fingerprint).toBe(first.fingerprint);

      const failures: string[] = [];
      let answers = 0;
      let keptAliveAfterSwap: string | null = null;
      let swapped = false;
      let stop = false;
      const load = async (agent?: Agent) => {
        while (!stop) {
          try {
            const answer = await httpsGet(`${server.url}/v1/titles/${SERVED_IDS[1]}`, {
              ca,
              headers: auth,
              agent,
            });
            if (answer.status !== 200) failures.push(`status ${answer.status}`);
            if (agent && swapped) keptAliveAfterSwap = answer.fingerprint;
            answers++;
          } catch (error) {
            failures.push(String(error));
          }
        }
      };
      const workers = [load(keptAlive), load(), load()];
      try {
        await new Promise((resolve) => setTimeout(resolve, 300));
        files.serve(renewed);
        swapped = true;
        await eventually(
          async () => (await httpsGet(`${server.url}/health`, { ca })).fingerprint === renewed.fingerprint,
          20_000,
        );
        await new Promise((resolve) => setTimeout(resolve, 300));
      } finally {
        stop = true;
        await Promise.all(workers);
        keptAlive.destroy();
      }
      expect(failures).toEqual([]);
      expect(answers).toBeGreaterThan(10);
      // The connection opened before the renewal was kept, with the certificate it began with.
      expect(keptAliveAfterSwap).toBe(first.fingerprint);
      expect(server.logMessages()).toContainEqual(`Certificate reloaded from ${files.certFile}`);
    }, 60_000);
  });

  describe('a certificate or key that cannot be used stops the start with one line naming it', () => {
    const cases: Array<[string, () => NodeJS.ProcessEnv, string, RegExp]> = [
      [
        'a missing certificate file',
        () => ({ TLS_CERT_FILE: `${files.dir}/missing.crt`, TLS_KEY_FILE: files.keyFile }),
        'TLS_CERT_FILE',
        /cannot be read \(ENOENT\)/,
      ],
      [
        'a certificate file that is not PEM',
        () => ({ TLS_CERT_FILE: files.write('junk.crt', 'not a certificate'), TLS_KEY_FILE: files.keyFile }),
        'TLS_CERT_FILE',
        /not a PEM certificate/,
      ],
      [
        'a key file that is a folder',
        () => ({ TLS_CERT_FILE: files.certFile, TLS_KEY_FILE: files.dir }),
        'TLS_KEY_FILE',
        /cannot be read \(EISDIR\)/,
      ],
      [
        'a key of another certificate',
        () => ({ TLS_CERT_FILE: `${files.dir}/first.crt`, TLS_KEY_FILE: `${files.dir}/renewed.key` }),
        'TLS_KEY_FILE',
        /does not match the certificate in TLS_CERT_FILE/,
      ],
      [
        'a certificate without its key',
        () => ({ TLS_CERT_FILE: files.certFile }),
        'TLS_KEY_FILE',
        /must be set with TLS_CERT_FILE/,
      ],
    ];

    it.each(cases)('%s', async (_case, env, variable, cause) => {
      const result = await runServerToExit({
        ...databaseEnvironment(database),
        HOST: '127.0.0.1',
        PORT: '0',
        ...env(),
      });
      expect(result.code).toBe(1);
      const lines = result.stderr.trimEnd().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(new RegExp(`^error: (Invalid configuration: )?${variable}\\b`));
      expect(lines[0]).toMatch(cause);
    });
  });
});
