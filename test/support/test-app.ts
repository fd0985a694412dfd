import type { INestApplication } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import { AppModule } from '../../src/app.module';
import { APP_OPTIONS, configureApp } from '../../src/app.setup';
import { CatalogWriter } from '../../src/catalog/catalog-writer';
import { type AppConfig, loadConfig } from '../../src/config/app-config';
import { type TestDatabase, createTestDatabase } from './test-database';

export interface TestApp {
  app: INestApplication;
  config: AppConfig;
  database: TestDatabase;
  writer: CatalogWriter;
  /** A GET through the real HTTP stack. */
  get(path: string): request.Test;
  close(): Promise<void>;
}

/** The real AppModule over a fresh database, in process; `overrides` adjust the literal config. */
export async function createTestApp(
  overrides: Partial<AppConfig> = {},
  database?: TestDatabase,
): Promise<TestApp> {
  const db = database ?? (await createTestDatabase());
  const config: AppConfig = {
    ...loadConfig({ APP_ENV: 'test', LOG_LEVEL: 'silent' }),
    database: db.config,
    ...overrides,
  };
  const moduleRef = await Test.createTestingModule({ imports: [AppModule.forRoot(config)] }).compile();
  const app = moduleRef.createNestApplication<NestExpressApplication>(APP_OPTIONS);
  configureApp(app);
  await app.init();
  return {
    app,
    config,
    database: db,
    writer: app.get(CatalogWriter),
    get: (path) => request(app.getHttpServer()).get(path),
    async close() {
      await app.close();
      if (!database) await db.drop();
    },
  };
}
