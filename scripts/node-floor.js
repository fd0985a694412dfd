// The oldest Node.js the service runs on is package.json's "engines" (">=X.Y"), the one place it is
// written. The build checks it first (`node scripts/node-floor.js`), and the entry points
// (scripts/write-entrypoints.js copies this file to dist/) check it before anything else, so an older
// Node stops with one line instead of a stack trace from deep inside a dependency. Plain CommonJS
// that any Node can run.
'use strict';
const { engines } = require('../package.json');

/** [major, minor, patch] of a range of the form `>=MAJOR.MINOR[.PATCH]`. */
function parseFloor(range) {
  const match = /^>=\s*(\d+)\.(\d+)(?:\.(\d+))?$/.exec(range);
  if (!match) throw new Error(`package.json "engines.node" is not of the form >=MAJOR.MINOR: ${range}`);
  return [Number(match[1]), Number(match[2]), Number(match[3] ?? 0)];
}

const FLOOR = parseFloor(engines.node);

/** Whether `version` (`24.9.0` or `v24.9.0`) is older than `floor`. */
function belowFloor(version, floor = FLOOR) {
  const parts = version.replace(/^v/, '').split('.').map(Number);
  for (let i = 0; i < floor.length; i++) if (parts[i] !== floor[i]) return parts[i] < floor[i];
  return false;
}

function refusal(version) {
  const [major, minor, patch] = FLOOR;
  const floor = patch === 0 ? `${major}.${minor}` : `${major}.${minor}.${patch}`;
  return `catalog-api needs Node.js ${floor} or newer (package.json "engines"); this is ${version}.`;
}

/** Exits with the refusal on stderr when this Node is older than the floor. */
function refuseBelowFloor() {
  if (!belowFloor(process.versions.node)) return;
  process.stderr.write(`${refusal(process.version)}\n`);
  process.exit(1);
}

module.exports = { FLOOR, parseFloor, belowFloor, refusal, refuseBelowFloor };

if (require.main === module) refuseBelowFloor();
