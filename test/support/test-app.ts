import type { INestApplication } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import { AppModule, type AppOptions } from '../../src/app.module';
import { APP_OPTIONS, configureApp, createHttpAdapter } from '../../src/app.setup';
import { ApiKeyService } from '../../src/auth/api-key.service';
import { CatalogWriter } from '../../src/catalog/store/catalog-writer';
import { type AppConfig, loadConfig } from '../../src/config/app-config';
import { type TestDatabase, createTestDatabase } from './test-database';
import { eventually } from './timing';

export interface TestApp {
  app: INestApplication;
  config: AppConfig;
  database: TestDatabase;
  writer: CatalogWriter;
  apiKeys: ApiKeyService;
  /** A key with limits no test reaches, sent by `get`. */
  key: string;
  /** A GET through the real HTTP stack, with `key` as the bearer token. */
  get(path: string): request.Test;
  /** Any request through the real HTTP stack, with no credentials. */
  http(): ReturnType<typeof request>;
  /**
   * Resolves once `/health` reports `catalogVersion`; fails after `withinMs`, the contract's bound
   * for another process's finished ingest to be served ("within a second").
   */
  servesCatalog(catalogVersion: string, withinMs?: number): Promise<void>;
  close(): Promise<void>;
}

export const CATALOG_SERVED_WITHIN_MS = 1_000;

/**
 * The real AppModule over a fresh database, in process; `overrides` adjust the literal config,
 * `options` are `AppModule.forRoot`'s (a team's extra modules).
 */
export async function createTestApp(
  overrides: Partial<AppConfig> = {},
  database?: TestDatabase,
  options: AppOptions = {},
): Promise<TestApp> {
  const db = database ?? (await createTestDatabase());
  const config: AppConfig = {
    // FAST_ANSWERS from the environment, so CI can run the same tests with the stock answer path.
    ...loadConfig({ APP_ENV: 'test', LOG_LEVEL: 'silent', FAST_ANSWERS: process.env.FAST_ANSWERS }),
    firstRunSetup: false,
    database: db.config,
    ...overrides,
  };
  const moduleRef = await Test.createTestingModule({
    imports: [AppModule.forRoot(config, options)],
  }).compile();
  const app = moduleRef.createNestApplication<NestExpressApplication>(
    createHttpAdapter(config.fastAnswers),
    APP_OPTIONS,
  );
  configureApp(app);
  await app.init();
  const apiKeys = app.get(ApiKeyService);
  const { key } = await apiKeys.create({ name: 'e2e', rpm: 1_000_000, monthlyQuota: 1_000_000_000 });
  return {
    app,
    config,
    database: db,
    writer: app.get(CatalogWriter),
    apiKeys,
    key,
    get: (path) => request(app.getHttpServer()).get(path).set('Authorization', `Bearer ${key}`),
    http: () => request(app.getHttpServer()),
    async servesCatalog(catalogVersion, withinMs = CATALOG_SERVED_WITHIN_MS) {
      await eventually(
        async () => {
          const health = await request(app.getHttpServer()).get('/health');
          return health.body?.data?.[0]?.catalog?.catalog_version === catalogVersion;
        },
        withinMs,
        20,
      );
    },
    async close() {
      await app.close();
      if (!database) await db.drop();
    },
  };
}
