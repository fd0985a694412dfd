// Part of `npm run build`, after the seed (whose `catalog:ingest` run already cached the CLI's
// modules): loads the server's modules once with Node's compile cache on, so that even the first
// `npm start` after a build reads their compiled code (dist/compile-cache, see write-entrypoints.js)
// instead of compiling its ~2,600 modules. Loading them starts nothing; a module the list misses is
// cached by the first start that loads it.
const { enableCompileCache, flushCompileCache } = require('node:module');
const { join } = require('node:path');

const dist = join(__dirname, '..', 'dist');
const { status, message } = enableCompileCache(join(dist, 'compile-cache'));
if (message) console.warn(`compile cache not written: ${message} (status ${status})`);
// main.ts's own imports, then what it imports once the embedded database is going.
for (const module of [
  'src/config/app-config',
  'src/startup/embedded-start',
  'src/startup/startup-failure',
  'src/tracing/tracing-config',
  'src/server-start',
]) {
  require(join(dist, module));
}
flushCompileCache();
