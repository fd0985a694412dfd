// The build compiles src/ and migrations/ side by side (dist/src, dist/migrations); the operator
// interface promises `node dist/main.js` and `node dist/cli.js`, so those two files forward there.
// Both first refuse a Node older than package.json's "engines" (scripts/node-floor.js, copied beside
// them), then turn on Node's compile cache in dist/compile-cache, which the build fills
// (scripts/warm-compile-cache.js): V8 then reads the modules' compiled code instead of compiling
// them at every start. NODE_COMPILE_CACHE (elsewhere) or NODE_DISABLE_COMPILE_CACHE=1 still win;
// a folder the process may not write (a read-only image) only leaves the cache off.
const { copyFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

copyFileSync(join(__dirname, 'node-floor.js'), join(__dirname, '..', 'dist', 'node-floor.js'));

for (const entry of ['main', 'cli']) {
  writeFileSync(
    join(__dirname, '..', 'dist', `${entry}.js`),
    [
      "'use strict';",
      "require('./node-floor').refuseBelowFloor();",
      "require('node:module').enableCompileCache(require('node:path').join(__dirname, 'compile-cache'));",
      `require('./src/${entry}');`,
      '',
    ].join('\n'),
  );
}
