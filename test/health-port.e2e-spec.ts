import { spawn } from 'node:child_process';
import { type AddressInfo, type Socket, connect } from 'node:net';
import { HEALTH_SERVER_BOUNDS } from '../src/health/health-port.protocol';
import { HealthService } from '../src/health/health.service';
import { STUCK_AFTER_MS, STUCK_MESSAGE } from '../src/health/probe-state';
import { DrainState } from '../src/server/drain-state';
import { FIXTURE_TITLES } from './support/catalog-fixture';
import { freePort } from './support/free-port';
import { rawConversation, rawRequest } from './support/raw-http';
import { type TestApp, createTestApp } from './support/test-app';
import { eventually } from './support/timing';

interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
}

/**
 * HEALTH_PORT: a listener for probes in a thread of its own, apart from the API port's connection
 * queue and event loop, answering GET /health exactly as the API port does (ready only once the API
 * port listens, 500 while draining or while the main thread's loop is stuck), and nothing else,
 * bounded as the API port is.
 */
describe('the health port', () => {
  let t: TestApp;
  let healthPort: number;
  let api: string;
  const probe = async (path = '/health', init: RequestInit = {}): Promise<Answer> => {
    const res = await fetch(`http://127.0.0.1:${healthPort}${path}`, init);
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
  };

  beforeAll(async () => {
    healthPort = await freePort();
    t = await createTestApp({ healthPort });
    await t.writer.replaceCatalog({ titles: FIXTURE_TITLES }, { catalogVersion: 'probe-1' });
  });
  afterAll(() => t.close());

  it('is not ready before the API port listens', async () => {
    const res = await probe();
    expect(res.status).toBe(500);
    expect(res.body).toEqual({
      error: {
        code: 'INTERNAL_ERROR',
        message: 'The service is starting.',
        request_id: res.headers.get('x-request-id'),
      },
    });
    await t.app.listen(0, '127.0.0.1');
    api = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
  });

  it("answers /health as the API port does, with the client's request id and the common headers", async () => {
    // Each port picks a finished load up on its own poll, within the contract's second of it.
    const loaded = async (url: string) =>
      ((await (await fetch(url)).json()) as { data?: Array<{ catalog: { catalog_version: string } }> })
        .data?.[0]?.catalog.catalog_version === 'probe-1';
    await eventually(
      async () => (await loaded(`${api}/health`)) && loaded(`http://127.0.0.1:${healthPort}/health`),
      1_000,
      50,
    );
    const onApi = await fetch(`${api}/health`);
    const res = await probe('/health?ignored=1', { headers: { 'X-Request-Id': 'probe-7' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...((await onApi.json()) as object), meta: { request_id: 'probe-7' } });
    expect((res.body as { data: Array<{ catalog: object }> }).data[0].catalog).toMatchObject({
      catalog_version: 'probe-1',
      title_count: FIXTURE_TITLES.length,
    });
    expect(res.headers.get('x-request-id')).toBe('probe-7');
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    for (const name of [
      'cache-control',
      'content-security-policy',
      'referrer-policy',
      'x-content-type-options',
    ]) {
      expect(res.headers.get(name)).toBe(onApi.headers.get(name));
    }
    const head = await fetch(`http://127.0.0.1:${healthPort}/health`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it('serves nothing else: the API stays on its own port', async () => {
    for (const [path, method] of [
      ['/v1/titles/tt0111161', 'GET'],
      ['/metrics', 'GET'],
      ['/health', 'POST'],
    ]) {
      const res = await probe(path, { method });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({
        error: {
          code: 'ROUTE_NOT_FOUND',
          message: 'The requested route was not found.',
          request_id: res.headers.get('x-request-id'),
        },
      });
    }
  });

  it("counts its probes with the API port's in the answered checks (health_checks_total)", async () => {
    const health = t.app.get(HealthService);
    const before = health.answered;
    await probe();
    await probe('/nowhere');
    expect(health.answered).toEqual({ ok: before.ok + 1, failed: before.failed });
  });

  it('answers a request without Host, and CONNECT, in the envelope, then closes', async () => {
    const noHost = await rawRequest(healthPort, 'GET /health HTTP/1.1\r\nX-Request-Id: bare-1\r\n\r\n');
    expect(noHost.status).toBe(400);
    expect(JSON.parse(noHost.body)).toEqual({
      error: { code: 'VALIDATION_ERROR', message: 'The request has no Host header.', request_id: 'bare-1' },
    });
    const connectAnswer = await rawRequest(
      healthPort,
      'CONNECT x:443 HTTP/1.1\r\nHost: x:443\r\nX-Request-Id: tunnel-1\r\n\r\n',
    );
    expect(connectAnswer.status).toBe(404);
    expect(JSON.parse(connectAnswer.body)).toEqual({
      error: {
        code: 'ROUTE_NOT_FOUND',
        message: 'The requested route was not found.',
        request_id: 'tunnel-1',
      },
    });
    for (const answer of [noHost, connectAnswer]) {
      expect(answer.headers).toMatchObject({
        'x-request-id': JSON.parse(answer.body).error.request_id,
        'content-type': 'application/json; charset=utf-8',
        'x-content-type-options': 'nosniff',
        connection: 'close',
      });
    }
  });

  it('answers one request per connection, and a silent connection 408 within seconds', async () => {
    const twice = await rawConversation(
      healthPort,
      'GET /health HTTP/1.1\r\nHost: x\r\n\r\nGET /health HTTP/1.1\r\nHost: x\r\n\r\n',
    );
    expect(twice.answers.map((answer) => answer.status)).toEqual([200]);
    expect(twice.answers[0].headers.connection).toBe('close');
    expect(twice.closed).toBe(true);

    const started = Date.now();
    const silent = await rawRequest(healthPort, '', 10_000);
    expect(silent.status).toBe(408);
    expect(JSON.parse(silent.body).error.code).toBe('VALIDATION_ERROR');
    const bound = HEALTH_SERVER_BOUNDS.headersTimeoutMs + HEALTH_SERVER_BOUNDS.checkEveryMs;
    expect(Date.now() - started).toBeLessThan(bound + 1_000);
  });

  it(`holds at most ${HEALTH_SERVER_BOUNDS.maxConnections} connections; more are closed on arrival`, async () => {
    const held: Socket[] = [];
    try {
      for (let i = 0; i < HEALTH_SERVER_BOUNDS.maxConnections; i++) {
        const socket = connect({ host: '127.0.0.1', port: healthPort });
        socket.on('error', () => undefined);
        held.push(socket);
        await new Promise((resolve) => socket.once('connect', resolve));
      }
      await new Promise((resolve) => setTimeout(resolve, 300));
      const refused = await rawConversation(healthPort, 'GET /health HTTP/1.1\r\nHost: x\r\n\r\n');
      expect(refused).toEqual({ answers: [], closed: true });
    } finally {
      for (const socket of held) socket.destroy();
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await probe()).status).toBe(200);
  });

  it(`answers 500 once the main thread's loop is stuck for ${STUCK_AFTER_MS} ms, 200 while it is not`, async () => {
    // The probes come from another process: this one's main thread is the server's, and it stops.
    const prober = Prober.start(healthPort, STUCK_AFTER_MS + 6_000);
    await prober.answered(200);
    const stoppedAt = Date.now();
    // Stuck, not busy: the main thread's loop turns not once (as in an endless synchronous loop).
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, STUCK_AFTER_MS + 2_000);
    const resumedAt = Date.now();
    const answers = await prober.done();

    const between = (from: number, to: number) => answers.filter((a) => a.at >= from && a.at < to);
    // Within the bound the thread keeps answering from the last state: a slow turn is not a stuck loop.
    const early = between(stoppedAt, stoppedAt + STUCK_AFTER_MS - 500);
    expect(early.length).toBeGreaterThan(5);
    expect(early.filter((a) => a.status !== 200)).toEqual([]);
    // Then 500, from a second past the bound (the heartbeat's period and the thread's look) until it beats.
    const stuck = between(stoppedAt + STUCK_AFTER_MS + 1_000, resumedAt);
    expect(stuck.length).toBeGreaterThan(0);
    expect(stuck.filter((a) => a.status !== 500 || a.message !== STUCK_MESSAGE)).toEqual([]);
    const firstFailure = answers.find((a) => a.status !== 200)!;
    expect(firstFailure.at - stoppedAt).toBeLessThanOrEqual(STUCK_AFTER_MS + 1_000);
    // Ready again within a second and a half of the loop turning (a beat, then a fresh reading).
    const after = between(resumedAt + 1_500, Number.POSITIVE_INFINITY);
    expect(after.length).toBeGreaterThan(0);
    expect(after.filter((a) => a.status !== 200)).toEqual([]);
  });

  it('fails readiness once the drain starts, as the API port does', async () => {
    t.app.get(DrainState).start();
    const res = await probe();
    expect(res.status).toBe(500);
    expect((res.body as { error: { code: string } }).error.code).toBe('INTERNAL_ERROR');
    expect((await fetch(`${api}/health`)).status).toBe(500);
  });
});

interface ProbeAnswer {
  /** When the answer arrived (ms since the epoch: the same clock as this process's `Date.now`). */
  at: number;
  status: number;
  message: string | undefined;
}

/** A process probing `/health` every 200 ms on a new connection for `forMs`, printing each answer. */
class Prober {
  private output = '';
  private readonly exited: Promise<void>;
  private waiting: { status: number; resolve: () => void } | undefined;

  private constructor(private readonly child: ReturnType<typeof spawn>) {
    child.stdout!.on('data', (chunk: Buffer) => {
      this.output += chunk.toString('utf8');
      if (this.waiting && this.answers().some((a) => a.status === this.waiting!.status))
        this.waiting.resolve();
    });
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
  }

  static start(port: number, forMs: number): Prober {
    const script = `
      const { get } = require('node:http');
      const end = Date.now() + ${forMs};
      const probe = () => {
        if (Date.now() > end) return;
        const req = get({ host: '127.0.0.1', port: ${port}, path: '/health', agent: false, timeout: 2000 }, (res) => {
          let body = '';
          res.on('data', (chunk) => (body += chunk));
          res.on('end', () => {
            const message = res.statusCode === 200 ? undefined : JSON.parse(body).error.message;
            console.log(JSON.stringify({ at: Date.now(), status: res.statusCode, message }));
          });
        });
        req.on('timeout', () => req.destroy(new Error('timeout')));
        req.on('error', () => console.log(JSON.stringify({ at: Date.now(), status: 0 })));
        setTimeout(probe, 200);
      };
      probe();
    `;
    return new Prober(spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] }));
  }

  answered(status: number): Promise<void> {
    return new Promise((resolve) => (this.waiting = { status, resolve }));
  }

  async done(): Promise<ProbeAnswer[]> {
    await this.exited;
    return this.answers();
  }

  private answers(): ProbeAnswer[] {
    return this.output
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as ProbeAnswer);
  }
}
