import { ROOT_CONTEXT } from '@opentelemetry/api';
import { TraceIdRatioBasedSampler } from '@opentelemetry/sdk-trace-node';
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OtlpReceiver, type ReceivedSpan } from './support/otlp-receiver';
import { SERVED_IDS, seedServedCatalog } from './support/served-catalog';
import { createServedDatabase, databaseEnvironment } from './support/served-database';
import {
  type RunningServer,
  cleanEnvironment,
  runServerToExit,
  startServer,
} from './support/startup-process';
import { TEST_ENGINE, type TestDatabase } from './support/test-database';
import { eventually } from './support/timing';

/**
 * OpenTelemetry traces of the built server (`node dist/main.js`): with OTEL_EXPORTER_OTLP_ENDPOINT
 * set, one request's spans reach an OTLP/HTTP receiver (JSON protocol) under the caller's trace id;
 * without it, no OpenTelemetry module is even loaded.
 */
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const MAIN = join(__dirname, '..', 'dist', 'main.js');

/** A database span's system (`db.system`, or `db.system.name` in newer conventions). */
const dbSystem = (span: ReceivedSpan) =>
  String(span.attributes['db.system.name'] ?? span.attributes['db.system']);

/** OTLP's SPAN_KIND_SERVER: a request's own span. */
const OTLP_SERVER_SPAN = 2;

/** A GET with headers, answered with its status. */
async function get(url: string, headers: Record<string, string>): Promise<number> {
  return (await fetch(url, { headers })).status;
}

describe('OpenTelemetry traces', () => {
  let database: TestDatabase;
  let key: string;

  beforeAll(async () => {
    database = await createServedDatabase();
    key = (await seedServedCatalog(database.config)).key;
  }, 120_000);
  afterAll(() => database?.drop());

  describe('with OTEL_EXPORTER_OTLP_ENDPOINT set (http/json)', () => {
    const receiver = new OtlpReceiver();
    let server: RunningServer;

    beforeAll(async () => {
      const endpoint = await receiver.start();
      server = await startServer({
        ...databaseEnvironment(database),
        REDIS_URL,
        LOG_LEVEL: 'info',
        OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_BSP_SCHEDULE_DELAY: '100',
      });
    }, 120_000);
    afterAll(async () => {
      await server?.stop();
      await receiver.stop();
    });

    it("exports one request's spans under the caller's trace: request, guards, handler, Redis and PostgreSQL", async () => {
      const traceId = randomBytes(16).toString('hex');
      const callerSpanId = randomBytes(8).toString('hex');
      const status = await get(`${server.url}/v1/titles/${SERVED_IDS[3]}`, {
        authorization: `Bearer ${key}`,
        traceparent: `00-${traceId}-${callerSpanId}-01`,
      });
      expect(status).toBe(200);

      const byName = (spans: ReceivedSpan[], name: string | RegExp) =>
        spans.find((span) => (typeof name === 'string' ? span.name === name : name.test(span.name)));
      await eventually(
        // The request's span ends last: once it is received, so are its children.
        async () => receiver.trace(traceId).some((span) => span.parentSpanId === callerSpanId),
        10_000,
        50,
      );
      const spans = receiver.trace(traceId);
      const request = spans.find((span) => span.parentSpanId === callerSpanId)!;
      expect(request).toMatchObject({ name: 'GET /v1/titles/:imdb_id', kind: 2 });
      expect(request.attributes['http.route']).toBe('/v1/titles/:imdb_id');
      expect(request.resource['service.name']).toBe('catalog-api');

      const apiKey = byName(spans, 'ApiKeyGuard.canActivate')!;
      const limits = byName(spans, 'LimitsGuard.canActivate')!;
      const handler = byName(spans, /^CatalogController\./)!;
      for (const stage of [apiKey, limits, handler]) expect(stage.parentSpanId).toBe(request.spanId);

      // Each span belongs to the request: its parent chain reaches the request's span.
      const ids = new Map(spans.map((span) => [span.spanId, span]));
      for (const span of spans) {
        let at: ReceivedSpan | undefined = span;
        while (at && at !== request) at = ids.get(at.parentSpanId ?? '');
        expect({ span: span.name, inRequest: at === request }).toEqual({ span: span.name, inRequest: true });
      }
      if (TEST_ENGINE === 'postgres') {
        // The minute counter's block is a Redis script call, inside the limits stage (on the embedded
        // database no Redis span reaches the trace: see docs/operations.md, Traces).
        const redis = spans.filter((span) => dbSystem(span) === 'redis');
        expect(redis.length).toBeGreaterThan(0);
        expect(redis.some((span) => span.parentSpanId === limits.spanId)).toBe(true);
        // The month counter's block and the title not yet cached are PostgreSQL statements.
        const statements = spans.filter((span) => dbSystem(span) === 'postgresql');
        expect(statements.some((span) => span.name.startsWith('pg.query:SELECT'))).toBe(true);
        expect(statements.some((span) => span.name.startsWith('pg.query:INSERT'))).toBe(true);
      }
      expect(receiver.contentTypes.every((type) => type.startsWith('application/json'))).toBe(true);

      // The access line of that request names the trace.
      await eventually(async () => server.stdout().includes(traceId), 5_000, 50);
      const line = server
        .stdout()
        .split('\n')
        .filter((text) => text.startsWith('{'))
        .map((text) => JSON.parse(text) as { msg: string; trace_id?: string; req?: { url: string } })
        .find((entry) => entry.msg === 'request completed' && entry.trace_id === traceId);
      expect(line?.req?.url).toBe(`/v1/titles/${SERVED_IDS[3]}`);
    });

    it('starts a new trace for a request without traceparent, and traces no /health probe', async () => {
      const before = receiver.spans.length;
      expect(await get(`${server.url}/health`, {})).toBe(200);
      expect(await get(`${server.url}/v1/movies?limit=2`, { authorization: `Bearer ${key}` })).toBe(200);
      await eventually(
        async () => receiver.spans.slice(before).some((span) => span.name === 'GET /v1/movies'),
        10_000,
        50,
      );
      const fresh = receiver.spans.slice(before);
      expect(fresh.some((span) => span.name.includes('/health'))).toBe(false);
      const list = fresh.find((span) => span.name === 'GET /v1/movies')!;
      expect(list.parentSpanId ?? '').toBe('');
    });
    it('exports no key and no long client text: the URL attributes are redacted and bounded as the log is', async () => {
      const forgedKey = `mov_live_${randomBytes(32).toString('base64url')}`;
      const traceId = randomBytes(16).toString('hex');
      const longId = `tt${'9'.repeat(12_000)}`;
      const traceparent = `00-${traceId}-${randomBytes(8).toString('hex')}-01`;
      await get(`${server.url}/v1/movies?limit=2&api_key=${forgedKey}`, {
        authorization: `Bearer ${key}`,
        traceparent,
      });
      await get(`${server.url}/v1/titles/${longId}/${forgedKey}`, {
        authorization: `Bearer ${key}`,
        traceparent,
      });
      await eventually(
        async () => receiver.trace(traceId).filter((span) => span.kind === OTLP_SERVER_SPAN).length === 2,
        10_000,
        50,
      );
      const exported = JSON.stringify(receiver.trace(traceId));
      expect(exported).not.toContain(forgedKey);
      expect(exported).not.toContain(forgedKey.slice(0, 20));
      const requests = receiver.trace(traceId).filter((span) => span.kind === OTLP_SERVER_SPAN);
      const query = requests.map((span) => span.attributes['url.query']).find((value) => value !== undefined);
      expect(query).toMatch(/^limit=2&api_key=\[REDACTED\]$/);
      const path = requests
        .map((span) => String(span.attributes['url.path']))
        .find((value) => value.includes('999'));
      expect(path!.length).toBeLessThanOrEqual(1_024);
    });
  });

  describe('with a sampling ratio and a caller that asks for sampling', () => {
    const receiver = new OtlpReceiver();
    let server: RunningServer;
    const RATIO = 0.5;

    beforeAll(async () => {
      server = await startServer({
        ...databaseEnvironment(database),
        OTEL_EXPORTER_OTLP_ENDPOINT: await receiver.start(),
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_BSP_SCHEDULE_DELAY: '100',
        OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
        OTEL_TRACES_SAMPLER_ARG: String(RATIO),
      });
    }, 120_000);
    afterAll(async () => {
      await server?.stop();
      await receiver.stop();
    });

    /** A trace id the configured ratio keeps (or drops), by the SDK's own rule. */
    function traceIdThatIs(kept: boolean): string {
      const ratio = new TraceIdRatioBasedSampler(RATIO);
      for (;;) {
        const traceId = randomBytes(16).toString('hex');
        const decision = ratio.shouldSample(ROOT_CONTEXT, traceId).decision;
        if ((decision !== 0) === kept) return traceId;
      }
    }

    it("keeps a caller's sampled trace only when the ratio would have kept it", async () => {
      const [dropped, kept] = [traceIdThatIs(false), traceIdThatIs(true)];
      const sampled = (traceId: string) => ({
        authorization: `Bearer ${key}`,
        traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01`,
      });
      expect(await get(`${server.url}/v1/movies?limit=2`, sampled(dropped))).toBe(200);
      expect(await get(`${server.url}/v1/movies?limit=2`, sampled(kept))).toBe(200);
      // Spans are exported in the order they end: once the later request's trace is in, the
      // earlier one's would be too.
      await eventually(
        async () => receiver.trace(kept).some((span) => span.kind === OTLP_SERVER_SPAN),
        10_000,
        50,
      );
      expect(receiver.trace(dropped)).toEqual([]);
    });
  });

  /**
   * How many modules of the OpenTelemetry SDK (exporters, instrumentations, resources, the tracer) a
   * started server has loaded: `node dist/main.js` with a preloaded probe that answers a message with
   * the paths of its module cache. The API package (`@opentelemetry/api`) is not counted: prom-client
   * loads it in any case, and without a registered SDK every call of it is a no-op.
   */
  const probeDir = mkdtempSync(join(tmpdir(), 'module-cache-probe-'));
  const probe = join(probeDir, 'probe.js');
  writeFileSync(
    probe,
    "process.on('message', (m) => { if (m === 'modules') process.send(Object.keys(require.cache)); });\n",
  );
  afterAll(() => rmSync(probeDir, { recursive: true, force: true }));

  async function loadedTelemetryModules(env: NodeJS.ProcessEnv): Promise<number> {
    const child = fork(MAIN, [], {
      env: cleanEnvironment({
        HOST: '127.0.0.1',
        PORT: '0',
        LOG_LEVEL: 'info',
        ...databaseEnvironment(database),
        ...env,
      }),
      execArgv: ['--require', probe],
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    try {
      let stdout = '';
      child.stdout!.on('data', (chunk) => (stdout += chunk));
      await eventually(async () => stdout.includes('Listening on'), 60_000, 50);
      return await new Promise<number>((resolve) => {
        child.once('message', (modules: string[]) =>
          resolve(modules.filter((path) => /@opentelemetry\/(?!api\/)/.test(path)).length),
        );
        child.send('modules');
      });
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  }

  it('without OTEL_* variables loads no OpenTelemetry SDK module; with an endpoint it does', async () => {
    expect(await loadedTelemetryModules({})).toBe(0);
    expect(
      await loadedTelemetryModules({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' }),
    ).toBeGreaterThan(10);
    expect(
      await loadedTelemetryModules({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9',
        OTEL_SDK_DISABLED: 'true',
      }),
    ).toBe(0);
  }, 120_000);

  it('refuses OTLP over gRPC at start with one line naming the variable', async () => {
    const exited = await runServerToExit({
      ...databaseEnvironment(database),
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4317',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
    });
    expect(exited.code).toBe(1);
    expect(exited.stderr).toBe(
      'error: Invalid configuration: OTEL_EXPORTER_OTLP_PROTOCOL must be http/protobuf or http/json\n',
    );
    expect(exited.stdout).toBe('');
  }, 60_000);
});
