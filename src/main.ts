import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from './app.module';
import { APP_OPTIONS, configureApp, createHttpAdapter } from './app.setup';
import { ConfigError, loadConfig } from './config/app-config';
import { embeddedDataDir } from './database/data-source-options';
import { EmbeddedDatabaseBusyError } from './database/embedded-lock';
import { drainOnSignals } from './server/graceful-shutdown';

async function bootstrap(): Promise<void> {
  const config = loadConfig();
  if (config.database.kind === 'embedded') embeddedDataDir(config.database.dataDir);
  const app = await NestFactory.create<NestExpressApplication>(
    AppModule.forRoot(config),
    createHttpAdapter(),
    APP_OPTIONS,
  );
  configureApp(app);
  await app.listen(config.port, config.host);
  drainOnSignals(app, config.server);
}

bootstrap().catch((error: unknown) => {
  // An operator's mistake gets one clear line; anything else the error with its stack.
  const operatorError = error instanceof ConfigError || error instanceof EmbeddedDatabaseBusyError;
  console.error(operatorError ? `error: ${error.message}` : error);
  process.exit(1);
});
