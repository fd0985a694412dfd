import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from './app.module';
import { APP_OPTIONS, configureApp, createHttpAdapter } from './app.setup';
import { type AppConfig, loadConfig } from './config/app-config';
import { drainOnSignals } from './server/graceful-shutdown';
import { preflight } from './startup/preflight';
import { describeStartupFailure, errorFirstLine, listenFailure } from './startup/startup-failure';
import { reportStartup } from './startup/startup-report';

let config: AppConfig | undefined;

async function bootstrap(): Promise<void> {
  config = loadConfig();
  await preflight(config);
  // Nest's own start-up logs (and TypeORM's retries) stay buffered until the JSON logger takes
  // over; a start that fails before then prints only its one line.
  const app = await NestFactory.create<NestExpressApplication>(
    AppModule.forRoot(config),
    createHttpAdapter(),
    {
      ...APP_OPTIONS,
      autoFlushLogs: false,
    },
  );
  configureApp(app);
  app.flushLogs();
  const { port, host } = config;
  await app.listen(port, host).catch((error: unknown) => {
    throw listenFailure(error, { port, host });
  });
  drainOnSignals(app, config.server);
  await reportStartup(app, config);
}

bootstrap().catch((error: unknown) => {
  // Before the logger exists a stack trace would be noise; LOG_LEVEL=debug shows it for a bug.
  const line = describeStartupFailure(error, config) ?? `start-up failed: ${errorFirstLine(error)}`;
  console.error(`error: ${line}`);
  if (config && ['debug', 'trace'].includes(config.logLevel)) console.error(error);
  process.exit(1);
});
