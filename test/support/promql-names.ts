/** PromQL's words that are not metric names where they stand alone (operators, modifiers). */
const KEYWORDS = new Set([
  'and',
  'or',
  'unless',
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'bool',
  'offset',
  'atan2',
  'inf',
  'nan',
]);

/**
 * The metric names a PromQL expression reads (Grafana's `$variables` allowed): what is left once
 * strings, label matchers, ranges, grouping clauses, function calls and numbers are taken out. Enough
 * for the expressions of our dashboard and rules, not a parser: a test checks it on them by hand.
 */
export function metricNames(expr: string): string[] {
  const stripped = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ')
    .replace(/\$[A-Za-z_]+/g, ' ');
  const names = new Set<string>();
  for (const match of stripped.matchAll(/[A-Za-z_:][A-Za-z0-9_:]*(?=\s*(\()?)/g)) {
    if (match[1] === '(' || KEYWORDS.has(match[0].toLowerCase())) continue;
    names.add(match[0]);
  }
  return [...names].sort();
}

/**
 * The metric families a Prometheus text exposition declares (`# TYPE` lines) or has samples of,
 * a histogram's `_bucket`, `_sum` and `_count` series included.
 */
export function exposedNames(exposition: string): Set<string> {
  const names = new Set<string>();
  for (const line of exposition.split('\n')) {
    const typed = /^# TYPE ([A-Za-z_:][A-Za-z0-9_:]*) (\w+)$/.exec(line);
    if (typed) {
      names.add(typed[1]);
      if (typed[2] === 'histogram' || typed[2] === 'summary')
        for (const suffix of ['_bucket', '_sum', '_count']) names.add(typed[1] + suffix);
      continue;
    }
    const sample = /^([A-Za-z_:][A-Za-z0-9_:]*)[{ ]/.exec(line);
    if (sample) names.add(sample[1]);
  }
  return names;
}
