// Writes deploy/grafana/catalog-api.json, the Grafana dashboard of the catalog API, from the panel
// list below (a test checks the committed file is this script's output: edit here, then run
// `node scripts/write-grafana-dashboard.js`). Every query reads the Prometheus data source chosen in
// the `datasource` variable: no data source UID is written in the file.
const { writeFileSync } = require('node:fs');
const { join } = require('node:path');

const OUT = join(__dirname, '..', 'deploy', 'grafana', 'catalog-api.json');

/** Every query's selector: the scrape job and the processes picked in the variables. */
const SEL = 'job=~"$job", instance=~"$instance"';
/** The selector with more matchers. */
const sel = (more) => `{${SEL}${more ? `, ${more}` : ''}}`;
const RATE = '[$__rate_interval]';
const rate = (metric, more, by) => `sum${by ? ` by (${by})` : ''} (rate(${metric}${sel(more)}${RATE}))`;

/**
 * The search admission's series, in one place: the search admission is being reworked, and its
 * series names may change with it.
 */
const SEARCH_ADMISSION = {
  running: 'search_running',
  waiting: 'search_waiting',
  refusals: 'search_refused_total',
};

const target = (expr, legendFormat, refId) => ({
  datasource: { type: 'prometheus', uid: '${datasource}' },
  expr,
  legendFormat,
  refId,
});

/** A count of API keys as one stat: green at 0, `alarmColor` from 1 key on. */
function keyCountStat(title, description, query, alarmColor) {
  return panel(title, description, [[query, 'keys']], {
    kind: 'stat',
    min: 0,
    thresholds: {
      mode: 'absolute',
      steps: [
        { color: 'green', value: null },
        { color: alarmColor, value: 1 },
      ],
    },
  });
}

/**
 * A panel: `exprs` is a list of [expression, legend]; `unit` a Grafana unit; `kind` 'timeseries' or
 * 'stat'; `stack` stacks the series; `thresholds` colours a stat.
 */
function panel(
  title,
  description,
  exprs,
  { unit = 'short', kind = 'timeseries', stack = false, min, max, thresholds } = {},
) {
  const defaults = { unit };
  if (min !== undefined) defaults.min = min;
  if (max !== undefined) defaults.max = max;
  if (kind === 'timeseries') {
    defaults.custom = {
      drawStyle: 'line',
      lineWidth: 1,
      fillOpacity: stack ? 30 : 10,
      showPoints: 'never',
      spanNulls: false,
      stacking: { mode: stack ? 'normal' : 'none', group: 'A' },
    };
  }
  defaults.thresholds = thresholds ?? { mode: 'absolute', steps: [{ color: 'green', value: null }] };
  defaults.color = { mode: thresholds ? 'thresholds' : 'palette-classic' };
  const options =
    kind === 'stat'
      ? {
          reduceOptions: { calcs: ['lastNotNull'], fields: '', values: false },
          colorMode: 'value',
          graphMode: 'area',
          textMode: 'auto',
        }
      : {
          legend: { displayMode: 'list', placement: 'bottom', showLegend: true },
          tooltip: { mode: 'multi', sort: 'desc' },
        };
  return {
    type: kind,
    title,
    description,
    datasource: { type: 'prometheus', uid: '${datasource}' },
    fieldConfig: { defaults, overrides: [] },
    options,
    targets: exprs.map(([expr, legend], i) => target(expr, legend, String.fromCharCode(65 + i))),
  };
}

const redAbove = (value) => ({
  mode: 'absolute',
  steps: [
    { color: 'green', value: null },
    { color: 'red', value },
  ],
});

/** Rows of panels; each row is laid out in columns of equal width, 8 units high. */
const ROWS = [
  {
    title: 'Traffic and errors',
    panels: [
      panel(
        'Requests by route',
        'Answers sent per second, by route template (unmatched: unknown paths and methods).',
        [[rate('http_requests_total', '', 'route'), '{{route}}']],
        { unit: 'reqps', stack: true },
      ),
      panel(
        'Answers by status',
        'Answers per second by HTTP status.',
        [[rate('http_requests_total', '', 'status'), '{{status}}']],
        { unit: 'reqps', stack: true },
      ),
      panel(
        'Server error ratio',
        'Share of answers that are 5xx, /health left out (the CatalogApiHighErrorRatio alert fires above 1% for 5 minutes). Searches refused under overload are 500s too: see Refusals.',
        [
          [
            `${rate('http_requests_total', 'route!="/health", status=~"5.."')} / ${rate('http_requests_total', 'route!="/health"')}`,
            '5xx share',
          ],
        ],
        { unit: 'percentunit', min: 0 },
      ),
      panel(
        'Error answers by route and code',
        'Error answers (status 400 and above) per second, by route and error code.',
        [[rate('http_request_rejections_total', '', 'route, code'), '{{route}} {{code}}']],
        { unit: 'reqps', stack: true },
      ),
    ],
  },
  {
    title: 'Latency',
    panels: [
      panel(
        'Latency quantiles, /v1 routes',
        'Time from the request reaching the application to the end of its answer, all /v1 routes together, from the histogram (buckets 5 ms to 30 s).',
        [
          [
            `histogram_quantile(0.5, ${rate('http_request_duration_seconds_bucket', 'route=~"/v1/.*"', 'le')})`,
            'p50',
          ],
          [
            `histogram_quantile(0.9, ${rate('http_request_duration_seconds_bucket', 'route=~"/v1/.*"', 'le')})`,
            'p90',
          ],
          [
            `histogram_quantile(0.99, ${rate('http_request_duration_seconds_bucket', 'route=~"/v1/.*"', 'le')})`,
            'p99',
          ],
        ],
        { unit: 's' },
      ),
      panel(
        'p99 latency by route',
        'p99 per route (the CatalogApiHighLatency alert fires above 1 s for 10 minutes).',
        [
          [
            `histogram_quantile(0.99, ${rate('http_request_duration_seconds_bucket', '', 'route, le')})`,
            '{{route}}',
          ],
        ],
        { unit: 's' },
      ),
      panel(
        'Statement timeouts',
        'Requests that failed because PostgreSQL cancelled their statement (each also a 500).',
        [[rate('db_statement_timeouts_total', '', 'route'), '{{route}}']],
        { unit: 'reqps' },
      ),
    ],
  },
  {
    title: 'Refusals and search admission',
    panels: [
      panel(
        'Refused by a limit (429)',
        'Requests refused for the per-minute limit (RATE_LIMITED) or the monthly quota (MONTHLY_QUOTA_EXCEEDED).',
        [[rate('http_request_rejections_total', 'status="429"', 'code'), '{{code}}']],
        { unit: 'reqps', stack: true },
      ),
      panel(
        'Searches refused under overload',
        'Searches the search admission refused because they could not start within 1 s (500 on /v1/search, counted by the admission), and their share of all searches.',
        [
          [rate(SEARCH_ADMISSION.refusals), 'refused/s'],
          [
            `${rate(SEARCH_ADMISSION.refusals)} / ${rate('http_requests_total', 'route="/v1/search"')}`,
            'share of searches',
          ],
        ],
        { unit: 'short' },
      ),
      panel(
        'Search admission',
        'Searches running in the database and waiting for their turn, all selected processes together.',
        [
          [`sum(${SEARCH_ADMISSION.running}${sel()})`, 'running'],
          [`sum(${SEARCH_ADMISSION.waiting}${sel()})`, 'waiting'],
        ],
      ),
    ],
  },
  {
    title: 'Caches',
    panels: [
      panel(
        'Cache bytes against the budget',
        'Bytes each catalog cache holds, stacked, against the budget they share (CACHE_BUDGET_MB), summed over the selected processes.',
        [
          [`sum by (cache) (catalog_cache_bytes${sel()})`, '{{cache}}'],
          [`sum(catalog_cache_budget_bytes${sel('cache="titles"')})`, 'budget'],
        ],
        { unit: 'bytes' },
      ),
      panel('Cache entries', 'Answers each cache holds.', [
        [`sum by (cache) (catalog_cache_entries${sel()})`, '{{cache}}'],
      ]),
      panel(
        'Cache hit ratio',
        'Share of requests each cache answered.',
        [
          [
            `${rate('catalog_cache_hits_total', '', 'cache')} / (${rate('catalog_cache_hits_total', '', 'cache')} + ${rate('catalog_cache_misses_total', '', 'cache')})`,
            '{{cache}}',
          ],
        ],
        { unit: 'percentunit', min: 0, max: 1 },
      ),
    ],
  },
  {
    title: 'Database',
    panels: [
      panel(
        'Connection pools',
        'Open connections of the main pool and of the search pool, and requests waiting for one (sustained waiting: the CatalogApiDatabasePoolSaturated alert).',
        [
          [`sum(db_pool_connections${sel()})`, 'main open'],
          [`sum(db_pool_idle_connections${sel()})`, 'main idle'],
          [`sum(db_pool_waiting_requests${sel()})`, 'main waiting'],
          [`sum(db_search_pool_connections${sel()})`, 'search open'],
          [`sum(db_search_pool_waiting_requests${sel()})`, 'search waiting'],
        ],
      ),
      panel(
        'Change feed live',
        'Per process: 1 while changes are pushed (LISTEN/NOTIFY), 0 while it polls. Absent with read replicas or the embedded database.',
        [[`min by (instance) (db_change_feed_live${sel()})`, '{{instance}}']],
        { min: 0, max: 1 },
      ),
      panel(
        'Read replicas in rotation',
        'Per replica: the processes that have it in rotation, and those whose catalog reads it serves now (target primary: reads on the primary).',
        [
          [`sum by (target) (db_read_target_up${sel()})`, '{{target}} in rotation'],
          [`sum by (target) (db_read_target_serving${sel()})`, '{{target}} serving'],
        ],
      ),
      panel(
        'Read replica lag',
        "How far behind the primary each replica replays, the worst process's view (left out of rotation at 1 s).",
        [[`max by (target) (db_read_target_lag_seconds${sel()})`, '{{target}}']],
        { unit: 's', min: 0 },
      ),
      panel('Catalog', 'Titles in the live catalog.', [[`max(catalog_titles${sel()})`, 'titles']], {
        kind: 'stat',
      }),
      panel(
        'Since the last catalog load',
        'Time since the last finished catalog load.',
        [[`time() - max(catalog_last_ingest_timestamp_seconds${sel()})`, 'age']],
        { kind: 'stat', unit: 's' },
      ),
    ],
  },
  {
    title: 'Process',
    panels: [
      panel(
        'CPU',
        'CPU seconds per second, per process (user and system).',
        [[`sum by (instance) (rate(process_cpu_seconds_total${sel()}${RATE}))`, '{{instance}}']],
        { unit: 'percentunit', min: 0 },
      ),
      panel(
        'Resident memory',
        'RSS per process.',
        [[`process_resident_memory_bytes${sel()}`, '{{instance}}']],
        { unit: 'bytes', min: 0 },
      ),
      panel(
        'V8 heap',
        'Heap used and its size per process.',
        [
          [`nodejs_heap_size_used_bytes${sel()}`, '{{instance}} used'],
          [`nodejs_heap_size_total_bytes${sel()}`, '{{instance}} size'],
        ],
        { unit: 'bytes', min: 0 },
      ),
      panel(
        'Event-loop lag',
        'How late the event loop ran timers, p50 and p99 since the previous scrape, per process.',
        [
          [`nodejs_eventloop_lag_p50_seconds${sel()}`, '{{instance}} p50'],
          [`nodejs_eventloop_lag_p99_seconds${sel()}`, '{{instance}} p99'],
        ],
        { unit: 's', min: 0 },
      ),
      panel(
        'Readiness',
        'Share of health checks that failed, per process, on the API port and HEALTH_PORT alike (probes fail while the database is unreachable or the process drains).',
        [
          [
            `sum by (instance) (rate(health_checks_total${sel('result="failed"')}${RATE})) / sum by (instance) (rate(health_checks_total${sel('')}${RATE}))`,
            '{{instance}}',
          ],
        ],
        { unit: 'percentunit', min: 0, max: 1 },
      ),
      panel(
        'TLS certificate expires in',
        'Days until the certificate served on the API port expires (TLS in the process only; the CatalogApiTlsCertificateExpiringSoon alert fires under 14).',
        [[`min((tls_certificate_expiry_timestamp_seconds${sel()} - time()) / 86400)`, 'days']],
        {
          kind: 'stat',
          unit: 'd',
          thresholds: {
            mode: 'absolute',
            steps: [
              { color: 'red', value: null },
              { color: 'orange', value: 14 },
              { color: 'green', value: 30 },
            ],
          },
        },
      ),
    ],
  },
  {
    title: 'API keys',
    panels: [
      keyCountStat(
        'API keys expiring within 7 days',
        'Enabled API keys whose expiry is within 7 days (every process reports the same count; keys:list names them; the CatalogApiKeysExpiringSoon alert fires above 0).',
        `max(api_keys_expiring_soon${sel()})`,
        'orange',
      ),
      keyCountStat(
        'API keys at 80% or more of their monthly quota',
        'Enabled, unexpired API keys that have used at least 80% of their monthly quota this UTC month, those at 100% included (each process counts them every 30 s; keys:list shows which; the CatalogApiKeysNearMonthlyQuota alert fires while some are between 80% and 100%).',
        `max(api_keys_monthly_quota_nearly_used${sel()})`,
        'orange',
      ),
      keyCountStat(
        'API keys out of their monthly quota',
        'Enabled, unexpired API keys that have used all of their monthly quota this UTC month: refused 429 MONTHLY_QUOTA_EXCEEDED until the next month (the CatalogApiKeysMonthlyQuotaUsedUp alert fires above 0).',
        `max(api_keys_monthly_quota_used_up${sel()})`,
        'red',
      ),
    ],
  },
];

/** The dashboard: rows laid out top to bottom on Grafana's 24-unit grid, ids numbered in order. */
function dashboard() {
  const panels = [];
  let y = 0;
  let id = 1;
  for (const row of ROWS) {
    panels.push({
      type: 'row',
      title: row.title,
      collapsed: false,
      id: id++,
      gridPos: { h: 1, w: 24, x: 0, y },
      panels: [],
    });
    y += 1;
    const perLine = row.panels.length > 4 ? 3 : row.panels.length;
    row.panels.forEach((p, i) => {
      const w = 24 / perLine;
      const x = (i % perLine) * w;
      const line = Math.floor(i / perLine);
      panels.push({ ...p, id: id++, gridPos: { h: 8, w, x, y: y + line * 8 } });
    });
    y += Math.ceil(row.panels.length / perLine) * 8;
  }
  return {
    __inputs: [],
    __requires: [
      { type: 'grafana', id: 'grafana', name: 'Grafana', version: '10.0.0' },
      { type: 'datasource', id: 'prometheus', name: 'Prometheus', version: '1.0.0' },
      { type: 'panel', id: 'timeseries', name: 'Time series', version: '' },
      { type: 'panel', id: 'stat', name: 'Stat', version: '' },
    ],
    title: 'Catalog API',
    description:
      'Traffic, errors, latency, refusals, caches, database and process of the catalog API (docs/metrics.md).',
    tags: ['catalog-api', 'nestjs', 'prometheus'],
    editable: true,
    graphTooltip: 1,
    refresh: '30s',
    schemaVersion: 39,
    time: { from: 'now-3h', to: 'now' },
    timezone: '',
    annotations: { list: [] },
    links: [],
    templating: {
      list: [
        {
          name: 'datasource',
          label: 'Data source',
          type: 'datasource',
          query: 'prometheus',
          current: {},
          hide: 0,
          refresh: 1,
          regex: '',
          options: [],
        },
        {
          name: 'job',
          label: 'Job',
          type: 'query',
          datasource: { type: 'prometheus', uid: '${datasource}' },
          query: { query: 'label_values(catalog_cache_budget_bytes, job)', refId: 'job' },
          definition: 'label_values(catalog_cache_budget_bytes, job)',
          current: {},
          includeAll: false,
          multi: false,
          refresh: 2,
          sort: 1,
          hide: 0,
          options: [],
        },
        {
          name: 'instance',
          label: 'Process',
          type: 'query',
          datasource: { type: 'prometheus', uid: '${datasource}' },
          query: {
            query: 'label_values(catalog_cache_budget_bytes{job=~"$job"}, instance)',
            refId: 'instance',
          },
          definition: 'label_values(catalog_cache_budget_bytes{job=~"$job"}, instance)',
          current: {},
          includeAll: true,
          allValue: '.+',
          multi: true,
          refresh: 2,
          sort: 1,
          hide: 0,
          options: [],
        },
      ],
    },
    panels,
    version: 1,
  };
}

/** The file's text: the dashboard as JSON, two-space indented, with a final newline. */
function dashboardText() {
  return `${JSON.stringify(dashboard(), null, 2)}\n`;
}

module.exports = { OUT, dashboardText, SEARCH_ADMISSION };

if (require.main === module) {
  writeFileSync(OUT, dashboardText());
  console.log(`wrote ${OUT}`);
}
