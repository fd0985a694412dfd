import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { metricNames } from './support/promql-names';

/**
 * The Grafana dashboard and the alert rules under deploy/: each generated file is its script's
 * output, the PrometheusRule holds the rules file's groups, every alert has its annotations, its
 * runbook and promtool tests that fire and do not fire it. `.ci/run` runs promtool itself (`check
 * rules`, `test rules`); test/observability-series.pg.e2e-spec.ts checks the series they name exist.
 */
const ROOT = join(__dirname, '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

/** What a script module exports, printed by a child process (the scripts are plain CommonJS). */
const scriptOutput = (script: string, call: string) =>
  execFileSync(process.execPath, ['-e', `process.stdout.write(require('./scripts/${script}').${call})`], {
    cwd: ROOT,
    encoding: 'utf8',
  });

interface Rule {
  alert: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}
interface RuleTest {
  alert_rule_test?: { alertname: string; exp_alerts?: unknown[] }[];
}

const RULES_FILE = 'deploy/prometheus/catalog-api.rules.yml';
const rulesFile = parse(read(RULES_FILE)) as { groups: { name: string; rules: Rule[] }[] };
const rules = rulesFile.groups.flatMap((group) => group.rules);

interface Panel {
  type: string;
  id: number;
  title: string;
  datasource?: { type: string; uid: string };
  gridPos: { h: number; w: number; x: number; y: number };
  targets?: { expr: string; datasource: { uid: string } }[];
}
const DASHBOARD_FILE = 'deploy/grafana/catalog-api.json';
const dashboard = JSON.parse(read(DASHBOARD_FILE)) as {
  uid?: unknown;
  panels: Panel[];
  templating: { list: { name: string; type: string; query: unknown }[] };
};

/** Every value under a key named `key`, anywhere in `value`. */
function valuesOf(value: unknown, key: string): unknown[] {
  if (Array.isArray(value)) return value.flatMap((item) => valuesOf(item, key));
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([k, v]) => [...(k === key ? [v] : []), ...valuesOf(v, key)]);
}

describe('Grafana dashboard', () => {
  const panels = dashboard.panels.filter((panel) => panel.type !== 'row');

  it('is what scripts/write-grafana-dashboard.js writes', () => {
    expect(read(DASHBOARD_FILE)).toBe(scriptOutput('write-grafana-dashboard', 'dashboardText()'));
  });

  it('reads the data source picked in its `datasource` variable, with no UID written in the file', () => {
    expect(dashboard.templating.list.find((variable) => variable.name === 'datasource')).toMatchObject({
      type: 'datasource',
      query: 'prometheus',
    });
    expect(dashboard.uid).toBeUndefined();
    expect(new Set(valuesOf(dashboard, 'uid'))).toEqual(new Set(['${datasource}']));
    for (const panel of panels) {
      expect(panel.datasource).toEqual({ type: 'prometheus', uid: '${datasource}' });
      expect(panel.targets!.length).toBeGreaterThan(0);
    }
  });

  it('has unique panel ids and lays its panels out on the 24-column grid without overlap', () => {
    const ids = dashboard.panels.map((panel) => panel.id);
    expect(new Set(ids).size).toBe(ids.length);
    const taken = new Set<string>();
    for (const { gridPos } of dashboard.panels) {
      expect(gridPos.x + gridPos.w).toBeLessThanOrEqual(24);
      for (let x = gridPos.x; x < gridPos.x + gridPos.w; x++)
        for (let y = gridPos.y; y < gridPos.y + gridPos.h; y++) {
          expect(taken.has(`${x},${y}`)).toBe(false);
          taken.add(`${x},${y}`);
        }
    }
  });

  it('has the panels operators asked for', () => {
    const titles = panels.map((panel) => panel.title);
    for (const wanted of [
      'Requests by route',
      'Answers by status',
      'Latency quantiles, /v1 routes',
      'Refused by a limit (429)',
      'Searches refused under overload',
      'Search admission',
      'Cache bytes against the budget',
      'Cache hit ratio',
      'Connection pools',
      'Change feed live',
      'Read replicas in rotation',
      'Read replica lag',
      'CPU',
      'Resident memory',
      'V8 heap',
      'Event-loop lag',
      'TLS certificate expires in',
      'API keys expiring within 7 days',
      'API keys at 80% or more of their monthly quota',
      'API keys out of their monthly quota',
    ])
      expect(titles).toContain(wanted);
  });
});

describe('Alert rules', () => {
  it('are valid YAML groups, each alert with a severity, a summary, a description and a runbook', () => {
    expect(rules.map((rule) => rule.alert)).toEqual([
      'CatalogApiHighErrorRatio',
      'CatalogApiHighLatency',
      'CatalogApiDatabasePoolSaturated',
      'CatalogApiChangeFeedDown',
      'CatalogApiRedisDegraded',
      'CatalogApiReadReplicaOutOfRotation',
      'CatalogApiReadReplicaLagging',
      'CatalogApiReadinessFailing',
      'CatalogApiTargetDown',
      'CatalogApiMonthlyQuotaExhaustion',
      'CatalogApiTlsCertificateExpiringSoon',
      'CatalogApiKeysExpiringSoon',
      'CatalogApiKeysNearMonthlyQuota',
      'CatalogApiKeysMonthlyQuotaUsedUp',
    ]);
    for (const rule of rules) {
      expect(['critical', 'warning']).toContain(rule.labels?.severity);
      expect(rule.annotations).toEqual({
        summary: expect.any(String),
        description: expect.any(String),
        runbook: `docs/operations.md#${rule.alert.toLowerCase()}`,
      });
      expect(rule.expr).toContain('job="catalog-api"');
    }
  });

  it('each have a runbook section in docs/operations.md', () => {
    const headings = read('docs/operations.md')
      .split('\n')
      .filter((line) => line.startsWith('#'))
      .map((line) => line.replace(/^#+\s*/, '').trim());
    for (const rule of rules) expect(headings).toContain(rule.alert);
  });

  it('the PrometheusRule is what scripts/write-prometheus-rule.js writes, and holds the same groups', () => {
    const resourceText = read('deploy/prometheus/catalog-api.prometheusrule.yml');
    expect(resourceText).toBe(
      scriptOutput(
        'write-prometheus-rule',
        `prometheusRuleText(require('node:fs').readFileSync('${RULES_FILE}', 'utf8'))`,
      ),
    );
    const resource = parse(resourceText) as { apiVersion: string; kind: string; spec: unknown };
    expect(resource.apiVersion).toBe('monitoring.coreos.com/v1');
    expect(resource.kind).toBe('PrometheusRule');
    expect(resource.spec).toEqual({ groups: rulesFile.groups });
  });

  it('each have promtool unit tests where they fire and where they do not', () => {
    const tests = (parse(read('deploy/prometheus/catalog-api.rules.test.yml')) as { tests: RuleTest[] })
      .tests;
    const cases = tests.flatMap((test) => test.alert_rule_test ?? []);
    for (const { alert } of rules) {
      const mine = cases.filter((c) => c.alertname === alert);
      expect({ alert, fires: mine.some((c) => (c.exp_alerts ?? []).length > 0) }).toEqual({
        alert,
        fires: true,
      });
      expect({ alert, quiet: mine.some((c) => (c.exp_alerts ?? []).length === 0) }).toEqual({
        alert,
        quiet: true,
      });
    }
  });
});

describe('metricNames', () => {
  it('finds the series an expression reads, and no function, keyword, label or variable', () => {
    expect(
      metricNames(
        'histogram_quantile(0.99, sum by (route, le) (rate(http_request_duration_seconds_bucket{job=~"$job", route=~"/v1/.*"}[$__rate_interval]))) > 1 and on (route) sum by (route) (rate(http_requests_total[5m])) > 0.1',
      ),
    ).toEqual(['http_request_duration_seconds_bucket', 'http_requests_total']);
    expect(
      metricNames('min((tls_certificate_expiry_timestamp_seconds{job="x"} - time()) / 86400) < 14 * 86400'),
    ).toEqual(['tls_certificate_expiry_timestamp_seconds']);
    expect(metricNames('up{job="catalog-api"} == 0')).toEqual(['up']);
  });

  it('finds a series in every panel query and alert expression', () => {
    const exprs = [
      ...dashboard.panels.flatMap((panel) => (panel.targets ?? []).map((target) => target.expr)),
      ...rules.map((rule) => rule.expr),
    ];
    for (const expr of exprs)
      expect({ expr, names: metricNames(expr).length > 0 }).toEqual({ expr, names: true });
  });
});
