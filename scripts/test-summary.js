// Reads the Jest --json results of the parts `scripts/test-all.sh` ran and prints each part's counts,
// what failed, and a closing line `N passed, N failed`. Exits 1 when anything failed or a part left
// no results (Jest itself failed), else 0.
//   node scripts/test-summary.js <results dir> <part>=<exit code>=<seconds> ...
const { existsSync, readFileSync } = require('node:fs');
const { join, relative } = require('node:path');

const [resultsDir, ...parts] = process.argv.slice(2);
const root = join(__dirname, '..');
let passed = 0;
let failed = 0;
const failures = [];

console.log('\n== summary');
for (const part of parts) {
  const [name, exitCode, seconds] = part.split('=');
  const file = join(resultsDir, `${name}.json`);
  if (!existsSync(file)) {
    // Jest stopped before writing its results (a configuration error, a crash): one failure.
    failed += 1;
    failures.push(`${name}: no results (jest exited ${exitCode}; its output is above)`);
    console.log(`${name}: no results, jest exited ${exitCode} after ${seconds} s`);
    continue;
  }
  const results = JSON.parse(readFileSync(file, 'utf8'));
  // A file that failed outside its tests (it did not compile, or a hook after all tests threw) has
  // no failed test of its own: it counts as one failure, so it cannot go unnoticed.
  const brokenFiles = results.testResults.filter(
    (file) => file.status === 'failed' && file.assertionResults.every((test) => test.status !== 'failed'),
  );
  const partFailed = results.numFailedTests + brokenFiles.length;
  passed += results.numPassedTests;
  failed += partFailed;
  const skipped = results.numPendingTests + results.numTodoTests;
  const slowest = results.testResults
    .map((file) => ({ name: relative(root, file.name), seconds: (file.endTime - file.startTime) / 1000 }))
    .sort((a, b) => b.seconds - a.seconds)
    .slice(0, 3)
    .map((file) => `${file.name} ${file.seconds.toFixed(0)} s`);
  console.log(
    `${name}: ${results.numPassedTests} passed, ${partFailed} failed` +
      (skipped ? `, ${skipped} skipped` : '') +
      ` (${results.numTotalTestSuites} files, ${seconds} s; slowest: ${slowest.join(', ')})`,
  );
  for (const file of results.testResults) {
    const where = relative(root, file.name);
    for (const test of file.assertionResults) {
      if (test.status === 'failed')
        failures.push(`${name}: ${where} › ${[...test.ancestorTitles, test.title].join(' › ')}`);
    }
    if (brokenFiles.includes(file))
      failures.push(`${name}: ${where} failed outside its tests (see its error above)`);
  }
  if (partFailed === 0 && exitCode !== '0') {
    // Every test passed but Jest still failed (e.g. a coverage threshold or an unhandled error).
    failed += 1;
    failures.push(`${name}: every test passed but jest exited ${exitCode} (see its output above)`);
  }
}
if (failures.length > 0) console.log(`failed:\n${failures.map((line) => `  ${line}`).join('\n')}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
