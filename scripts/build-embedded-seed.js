// Part of `npm run build`: writes dist/embedded-seed/pglite, the embedded database with every
// migration applied and the sample catalog loaded (no API keys), by running the just-built CLI on a
// temporary DATA_DIR. The server's first start copies it instead of building the database itself
// (src/startup/embedded-seed.ts). Reproducible from a clone: sample-data/ and the code are all it reads.
const { execFileSync } = require('node:child_process');
const { cpSync, mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

if (process.env.CATALOG_API_SKIP_EMBEDDED_SEED === '1') process.exit(0); // the container image

const root = join(__dirname, '..');
const sample = join(root, 'sample-data');
const out = join(root, 'dist', 'embedded-seed', 'pglite');
const dataDir = mkdtempSync(join(tmpdir(), 'catalog-api-seed-'));
const env = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
delete env.DATABASE_URL;
delete env.REDIS_URL;
delete env.CATALOG_API_REQUIRE_DATABASE_URL;

async function dropTemplateDatabases(pgliteDir) {
  const { PGlite } = require('@electric-sql/pglite');
  const db = await PGlite.create({ dataDir: pgliteDir });
  try {
    for (const name of ['template0', 'template1']) {
      await db.exec(`ALTER DATABASE ${name} IS_TEMPLATE false`);
      await db.exec(`DROP DATABASE ${name}`);
    }
    await db.exec('CHECKPOINT');
  } finally {
    await db.close();
  }
}

async function build() {
  execFileSync(
    process.execPath,
    [
      join(root, 'dist', 'cli.js'),
      'catalog:ingest',
      '--basics', join(sample, 'title.basics.tsv'),
      '--ratings', join(sample, 'title.ratings.tsv'),
      '--enrichment', join(sample, 'enrichment.ndjson'),
      '--catalog-version', 'sample',
      '--json',
    ],
    { env, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  await dropTemplateDatabases(join(dataDir, 'pglite'));
  rmSync(out, { recursive: true, force: true });
  cpSync(join(dataDir, 'pglite'), out, { recursive: true });
}

build()
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(() => rmSync(dataDir, { recursive: true, force: true }));
