import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { DevelopmentKeyBootstrap } from '../src/auth/development-key.bootstrap';
import { type TestApp, createTestApp } from './support/test-app';
import { TEST_ENGINE, type TestDatabase, createTestDatabase } from './support/test-database';

/** What `npm start` does on a fresh machine: sample catalog and a development key, embedded only. */
describe('first run', () => {
  let database: TestDatabase;
  let printed: string[];
  let stderrWrite: jest.SpyInstance;

  beforeAll(async () => {
    if (TEST_ENGINE === 'embedded') {
      const dataDir = mkdtempSync(join(tmpdir(), 'catalog-first-run-'));
      database = {
        config: { kind: 'embedded', dataDir },
        drop: async () => rmSync(dataDir, { recursive: true, force: true }),
      };
    } else {
      database = await createTestDatabase();
    }
  });
  beforeEach(() => {
    printed = [];
    stderrWrite = jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      printed.push(String(chunk));
      return true;
    });
  });
  afterEach(() => stderrWrite.mockRestore());
  afterAll(() => database.drop());

  /** What the server does once it listens (`startServer`). */
  const announce = (app: TestApp) =>
    app.app.get(DevelopmentKeyBootstrap).createOnFirstRun('http://localhost:3000');
  const printedKey = () => /mov_live_[A-Za-z0-9_-]{43}/.exec(printed.join(''))?.[0];

  if (TEST_ENGINE === 'embedded') {
    it('loads the sample catalog and prints a working development key once, on stderr', async () => {
      const app = await createTestApp({ firstRunSetup: true }, database);
      try {
        // A first run has no key at all: the test harness's own key goes first.
        await app.app.get(DataSource).query('DELETE FROM api_keys');
        await announce(app);
        const key = printedKey();
        expect(key).toBeDefined();
        const { catalog } = (await app.get('/health').expect(200)).body.data[0];
        expect(catalog).toMatchObject({ catalog_version: 'sample' });
        expect(catalog.title_count).toBeGreaterThan(300);
        const res = await app
          .http()
          .get('/v1/search?q=the')
          .set('Authorization', `Bearer ${key}`)
          .expect(200);
        expect(res.body.meta.total_results).toBeGreaterThan(10);
      } finally {
        await app.close();
      }
    });

    it('does neither again once the database has keys and a catalog', async () => {
      const app = await createTestApp({ firstRunSetup: true }, database);
      try {
        await announce(app);
        expect(printedKey()).toBeUndefined();
        expect((await app.get('/health').expect(200)).body.data[0].catalog.catalog_version).toBe('sample');
      } finally {
        await app.close();
      }
    });
  } else {
    it('creates no key and loads nothing with DATABASE_URL', async () => {
      const app = await createTestApp({ firstRunSetup: true }, database);
      try {
        await announce(app);
        expect(printedKey()).toBeUndefined();
        expect(await app.apiKeys.count()).toBe(1); // the test's own key
        expect((await app.get('/health').expect(200)).body.data[0].catalog).toMatchObject({
          catalog_version: null,
          title_count: 0,
        });
      } finally {
        await app.close();
      }
    });
  }
});
