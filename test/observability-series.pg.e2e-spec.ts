import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import { parse } from 'yaml';
import { exposedNames, metricNames } from './support/promql-names';
import { SERVED_IDS, seedServedCatalog } from './support/served-catalog';
import { createServedDatabase, databaseEnvironment } from './support/served-database';
import { type RunningServer, startServer } from './support/startup-process';
import { freePort } from './support/free-port';
import type { TestDatabase } from './support/test-database';
import { type SelfSigned, TlsFiles } from './support/tls-files';

/**
 * Every series the Grafana dashboard or an alert rule reads is exposed by the built server after
 * some traffic. Some series exist only in one setup (the change feed without read replicas, the
 * replicas' series with them, the certificate's with TLS in the process), so two servers run: one on
 * PostgreSQL with TLS and its change feed, one with a read replica (the primary named again: left
 * out, as it is no standby, but reported). What either exposes counts.
 */
const ROOT = join(__dirname, '..');
/** Series Prometheus makes itself for each target, never exposed by one. */
const PROMETHEUS_OWN = new Set(['up']);

function readExpressions(): string[] {
  const dashboard = JSON.parse(readFileSync(join(ROOT, 'deploy/grafana/catalog-api.json'), 'utf8')) as {
    panels: { targets?: { expr: string }[] }[];
    templating: { list: { query?: unknown }[] };
  };
  const rules = parse(readFileSync(join(ROOT, 'deploy/prometheus/catalog-api.rules.yml'), 'utf8')) as {
    groups: { rules: { expr: string }[] }[];
  };
  return [
    ...dashboard.panels.flatMap((panel) => (panel.targets ?? []).map((target) => target.expr)),
    // A variable's `label_values(SELECTOR, label)`: the selector is PromQL, the label is not.
    ...dashboard.templating.list.flatMap(({ query }) => {
      const text = typeof query === 'object' && query !== null ? (query as { query: string }).query : '';
      const selector = /^label_values\((.*),\s*\w+\)$/.exec(text)?.[1];
      return selector ? [selector] : [];
    }),
    ...rules.groups.flatMap((group) => group.rules.map((rule) => rule.expr)),
  ];
}

/** A GET answered with its status and body (`ca`: HTTPS trusting that certificate). */
function get(
  url: string,
  headers: Record<string, string> = {},
  ca?: string,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = url.startsWith('https:') ? httpsRequest : httpRequest;
    const req = request(url, { headers, ca, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the series the dashboard and the alert rules read', () => {
  const files = new TlsFiles();
  let certificate: SelfSigned;
  let database: TestDatabase;
  let auth: Record<string, string>;
  const servers: { server: RunningServer; metrics: string; ca?: string }[] = [];

  beforeAll(async () => {
    certificate = files.selfSigned('series');
    files.serve(certificate);
    database = await createServedDatabase();
    auth = { Authorization: `Bearer ${(await seedServedCatalog(database.config)).key}` };
    const env = databaseEnvironment(database);
    for (const extra of [
      { TLS_CERT_FILE: files.certFile, TLS_KEY_FILE: files.keyFile },
      // With Redis (CI's, or TEST_REDIS_URL): dependency_degraded is reported only where it is set.
      {
        DATABASE_READ_URL: String(env.DATABASE_URL),
        REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
      },
    ]) {
      const metricsPort = await freePort();
      const server = await startServer({ ...env, ...extra, METRICS_PORT: String(metricsPort) });
      servers.push({
        server,
        metrics: `http://127.0.0.1:${metricsPort}/metrics`,
        ca: 'TLS_CERT_FILE' in extra ? certificate.cert : undefined,
      });
    }
  }, 180_000);
  afterAll(async () => {
    for (const { server } of servers) await server.stop();
    await database?.drop();
    files.cleanup();
  });

  it('are all exposed after some traffic', async () => {
    const exposed = new Set<string>();
    for (const { server, metrics, ca } of servers) {
      for (const path of [
        `/v1/titles/${SERVED_IDS[0]}`,
        `/v1/titles/${SERVED_IDS[0]}`,
        `/v1/titles/${SERVED_IDS[0]}`,
        '/v1/titles/tt0000001',
        '/v1/search?q=served',
        '/v1/movies?limit=5',
        '/v1/series?limit=0',
      ])
        await get(server.url + path, auth, ca);
      expect((await get(`${server.url}/v1/movies`, {}, ca)).status).toBe(401);
      expect((await get(`${server.url}/health`, {}, ca)).status).toBe(200);
      const scrape = await get(metrics);
      expect(scrape.status).toBe(200);
      for (const name of exposedNames(scrape.body)) exposed.add(name);
    }
    const wanted = [...new Set(readExpressions().flatMap(metricNames))].filter(
      (name) => !PROMETHEUS_OWN.has(name),
    );
    // The list is long (pools, replicas, caches, process…): a sanity floor, so a broken extraction cannot pass.
    expect(wanted.length).toBeGreaterThan(25);
    expect(wanted.filter((name) => !exposed.has(name))).toEqual([]);
  });

  it('the certificate series is the served certificate notAfter', async () => {
    const body = (await get(servers[0].metrics)).body;
    const value = Number(/^tls_certificate_expiry_timestamp_seconds (\S+)$/m.exec(body)?.[1]);
    expect(value).toBe(Date.parse(new X509Certificate(certificate.cert).validTo) / 1000);
  });

  it('a name no server exposes is caught', () => {
    const exposed = exposedNames(
      '# TYPE a_total counter\na_total 1\n# TYPE h histogram\nh_bucket{le="1"} 1\n',
    );
    expect(['a_total', 'h_bucket', 'h_count'].every((name) => exposed.has(name))).toBe(true);
    expect(exposed.has('catalog_cache_hits_totals')).toBe(false);
  });
});
