// The build compiles src/ and migrations/ side by side (dist/src, dist/migrations); the operator
// interface promises `node dist/main.js` and `node dist/cli.js`, so those two files forward there.
// Both first turn on Node's compile cache in dist/compile-cache, which the build fills
// (scripts/warm-compile-cache.js): V8 then reads the modules' compiled code instead of compiling
// them at every start. NODE_COMPILE_CACHE (elsewhere) or NODE_DISABLE_COMPILE_CACHE=1 still win;
// a folder the process may not write (a read-only image) only leaves the cache off.
const { writeFileSync } = require('node:fs');
const { join } = require('node:path');

for (const entry of ['main', 'cli']) {
  writeFileSync(
    join(__dirname, '..', 'dist', `${entry}.js`),
    [
      "'use strict';",
      "require('node:module').enableCompileCache(require('node:path').join(__dirname, 'compile-cache'));",
      `require('./src/${entry}');`,
      '',
    ].join('\n'),
  );
}
