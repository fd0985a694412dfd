// Lists each direct dependency (dependencies and devDependencies) whose installed version is a major
// behind the registry's `latest` (for 0.x, a minor: 0.223 -> 0.301 breaks like a major), with the
// reason written beside it in CONTRIBUTING.md, table "Dependencies a major behind". Exits 1 when one
// is behind with no reason there. CI runs it after `npm ci` (it asks the registry through `npm
// outdated`, one request per direct dependency, as npm itself does).
'use strict';
const { execFileSync } = require('node:child_process');
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

const ROOT = join(__dirname, '..');
const HEADING = '### Dependencies a major behind';

/** `1.2.3` -> [1, 2, 3]; pre-release tails are ignored. */
function parts(version) {
  return String(version)
    .replace(/^[^\d]*/, '')
    .split('-')[0]
    .split('.')
    .map(Number);
}

/** The breaking line of a version: its major, or `0.minor` below 1.0. */
function line(version) {
  const [major, minor] = parts(version);
  return major === 0 ? [0, minor] : [major, 0];
}

/** Whether `latest` is on a later breaking line than `current`. */
function majorBehind(current, latest) {
  const [a, b] = [line(current), line(latest)];
  return b[0] > a[0] || (b[0] === a[0] && b[1] > a[1]);
}

/** `name -> reason` from the CONTRIBUTING.md table's rows: | `name` | behind | reason |. */
function reasons(markdown) {
  const start = markdown.indexOf(HEADING);
  if (start < 0) throw new Error(`CONTRIBUTING.md has no "${HEADING}" section`);
  const rest = markdown.slice(start + HEADING.length);
  const end = rest.search(/\n#{1,3} /);
  const section = end < 0 ? rest : rest.slice(0, end);
  const found = new Map();
  for (const row of section.split('\n')) {
    const cells = row.split('|').map((cell) => cell.trim());
    const name = /^`([^`]+)`$/.exec(cells[1] ?? '');
    if (name && cells[3]) found.set(name[1], cells[3]);
  }
  return found;
}

/** `npm outdated --json` (it exits 1 when anything is outdated; its JSON is still the answer). */
function outdated() {
  try {
    return JSON.parse(execFileSync('npm', ['outdated', '--json'], { cwd: ROOT, encoding: 'utf8' }) || '{}');
  } catch (error) {
    if (error.stdout) return JSON.parse(error.stdout || '{}');
    throw error;
  }
}

function main() {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  const direct = new Set([...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.devDependencies ?? {})]);
  const written = reasons(readFileSync(join(ROOT, 'CONTRIBUTING.md'), 'utf8'));
  const behind = Object.entries(outdated())
    .filter(([name, info]) => direct.has(name) && info.current && info.latest)
    .filter(([, info]) => majorBehind(info.current, info.latest))
    .sort(([a], [b]) => a.localeCompare(b));
  let missing = 0;
  for (const [name, info] of behind) {
    const reason = written.get(name);
    if (!reason) missing++;
    console.log(`${name} ${info.current} (latest ${info.latest}): ${reason ?? 'NO REASON in CONTRIBUTING.md'}`);
  }
  for (const name of written.keys())
    if (!behind.some(([behindName]) => behindName === name))
      console.log(`note: ${name} is in the table but not a major behind: remove its row`);
  console.log(`${behind.length} direct dependencies a major behind, ${missing} without a reason`);
  if (missing > 0) process.exit(1);
}

if (require.main === module) main();
module.exports = { majorBehind, reasons };
