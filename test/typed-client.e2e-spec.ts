import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { FIXTURE_TITLES } from './support/catalog-fixture';
import { type TestApp, createTestApp } from './support/test-app';

const run = promisify(execFile);
const ROOT = join(__dirname, '..');
const BIN = join(ROOT, 'node_modules', '.bin');
const CLIENT = join(ROOT, 'clients', 'typescript');
const TYPES = join(CLIENT, 'catalog-api.d.ts');
const REGENERATE =
  'npm run build && node scripts/write-openapi.js dist/openapi.json && ' +
  'npx openapi-typescript dist/openapi.json --output clients/typescript/catalog-api.d.ts';

/**
 * The typed client consumers copy (clients/typescript/): its committed types are what openapi-typescript
 * makes of the document the service serves, and its example compiles with `tsc --strict` and walks
 * every page of a list against the service.
 */
describe('the TypeScript client in clients/typescript', () => {
  let t: TestApp;
  let workDir: string;
  let baseUrl: string;

  beforeAll(async () => {
    t = await createTestApp();
    await t.writer.replaceCatalog({ titles: FIXTURE_TITLES }, { catalogVersion: 'client-1' });
    await t.app.listen(0, '127.0.0.1');
    baseUrl = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    workDir = mkdtempSync(join(tmpdir(), 'catalog-client-'));
  }, 120_000);
  afterAll(async () => {
    await t.close();
    rmSync(workDir, { recursive: true, force: true });
  });

  it('has the types openapi-typescript makes of the served document, byte for byte', async () => {
    const served = (await t.http().get('/openapi.json').expect(200)).text;
    writeFileSync(join(workDir, 'openapi.json'), served);
    await run(join(BIN, 'openapi-typescript'), [
      join(workDir, 'openapi.json'),
      '--output',
      join(workDir, 'catalog-api.d.ts'),
    ]);
    const generated = readFileSync(join(workDir, 'catalog-api.d.ts'), 'utf8');
    const committed = readFileSync(TYPES, 'utf8');
    if (generated !== committed) {
      throw new Error(
        `clients/typescript/catalog-api.d.ts differs from the served document; regenerate it: ${REGENERATE}`,
      );
    }
  });

  it('compiles its example with tsc --strict and walks every page of a list with it', async () => {
    const out = join(workDir, 'out');
    const compiled = await run(join(BIN, 'tsc'), ['--strict', '-p', CLIENT, '--outDir', out]).then(
      () => 'compiled',
      (error: { stdout?: string }) => error.stdout ?? String(error),
    );
    expect(compiled).toBe('compiled');

    const movies = (await t.get('/v1/movies?limit=20').expect(200)).body;
    const limit = 3;
    expect(movies.meta.total_results).toBeGreaterThan(2 * limit); // several pages
    const { stdout } = await run(process.execPath, [join(out, 'example.js'), '/v1/movies', String(limit)], {
      env: { PATH: process.env.PATH, CATALOG_API_URL: baseUrl, CATALOG_API_KEY: t.key },
    });
    const walked = JSON.parse(stdout) as { titles: number; ids: string[]; first: string };
    expect(walked.ids).toEqual(movies.data.map((title: { imdb_id: string }) => title.imdb_id));
    expect(walked.first).toBe(movies.data[0].title);
  });

  it('reports a refusal with its code from the error envelope', async () => {
    const out = join(workDir, 'out');
    const refused = await run(process.execPath, [join(out, 'example.js'), '/v1/movies', '21'], {
      env: { PATH: process.env.PATH, CATALOG_API_URL: baseUrl, CATALOG_API_KEY: t.key },
    }).then(
      () => 'answered',
      (error: { stderr?: string }) => error.stderr ?? String(error),
    );
    expect(refused).toContain('400 VALIDATION_ERROR: limit must be an integer from 1 to 20');
  });
});
