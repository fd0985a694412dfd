// Writes deploy/prometheus/catalog-api.prometheusrule.yml, the Prometheus Operator's PrometheusRule
// holding the groups of deploy/prometheus/catalog-api.rules.yml as they are (expressions, comments
// and all). A test checks the committed file is this script's output: edit the rules file, then run
// `node scripts/write-prometheus-rule.js`.
const { readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const YAML = require('yaml');

const DIR = join(__dirname, '..', 'deploy', 'prometheus');
const RULES = join(DIR, 'catalog-api.rules.yml');
const OUT = join(DIR, 'catalog-api.prometheusrule.yml');

/** The PrometheusRule's text for the rules file's text. */
function prometheusRuleText(rulesText) {
  const rules = YAML.parseDocument(rulesText);
  const resource = new YAML.Document({
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'PrometheusRule',
    metadata: {
      name: 'catalog-api',
      labels: { 'app.kubernetes.io/name': 'catalog-api', 'app.kubernetes.io/component': 'alerting' },
    },
    spec: {},
  });
  resource.setIn(['spec', 'groups'], rules.get('groups', true));
  resource.commentBefore =
    ' Generated from catalog-api.rules.yml by `node scripts/write-prometheus-rule.js`: edit that file\n' +
    " and run the script again. The Prometheus Operator picks this up when its Prometheus's\n" +
    ' ruleSelector matches these labels (add yours, e.g. `release: prometheus` for kube-prometheus-stack).';
  return resource.toString({ lineWidth: 0 });
}

module.exports = { RULES, OUT, prometheusRuleText };

if (require.main === module) {
  writeFileSync(OUT, prometheusRuleText(readFileSync(RULES, 'utf8')));
  console.log(`wrote ${OUT}`);
}
