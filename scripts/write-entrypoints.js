// The build compiles src/ and migrations/ side by side (dist/src, dist/migrations); the operator
// interface promises `node dist/main.js` and `node dist/cli.js`, so those two files forward there.
const { writeFileSync } = require('node:fs');
const { join } = require('node:path');

for (const entry of ['main', 'cli']) {
  writeFileSync(join(__dirname, '..', 'dist', `${entry}.js`), `'use strict';\nrequire('./src/${entry}');\n`);
}
