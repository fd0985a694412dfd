import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from './app.module';
import { APP_OPTIONS, configureApp } from './app.setup';
import { ConfigError, loadConfig } from './config/app-config';

async function bootstrap(): Promise<void> {
  const config = loadConfig();
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), APP_OPTIONS);
  configureApp(app);
  await app.listen(config.port, config.host);
}

bootstrap().catch((error: unknown) => {
  // Bad configuration: one clear line naming the variable. Anything else: the error as it is.
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
