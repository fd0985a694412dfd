import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { AppModule, type AppOptions } from './app.module';
import { APP_OPTIONS, configureApp, createHttpAdapter } from './app.setup';
import { ApiKeyService } from './auth/api-key.service';
import { DevelopmentKeyBootstrap } from './auth/development-key.bootstrap';
import { CatalogStateRepository } from './catalog/catalog-state.repository';
import type { AppConfig } from './config/app-config';
import { CertificateReloader } from './server/certificate-reloader';
import { drainOnSignals } from './server/graceful-shutdown';
import { httpsServerOptions } from './server/http-server';
import { ServedCertificate } from './server/served-certificate';
import { readTlsCredentials } from './server/tls-credentials';
import { preflight } from './startup/preflight';
import { listenFailure } from './startup/startup-failure';
import { reportStartup } from './startup/startup-report';
import type { Tracing } from './tracing/tracing.types';

/**
 * Loaded by `main.ts` only after the embedded database is set going, so loading Nest overlaps it.
 * `options` adds a team's modules (docs/extending.md).
 */
export async function startServer(
  config: AppConfig,
  options: AppOptions = {},
  tracing: Tracing | null = null,
): Promise<void> {
  await preflight(config);
  const tls = config.tls ? readTlsCredentials(config.tls) : null;
  // Every log line of the start (Nest's, TypeORM's retries, the listen error Nest logs itself)
  // stays buffered until the server listens: a start that fails prints only its one line.
  const modules = [...(options.modules ?? []), ...(tracing ? [tracing.module] : [])];
  const app = await NestFactory.create<NestExpressApplication>(
    AppModule.forRoot(config, { ...options, modules }),
    createHttpAdapter(config.fastAnswers),
    {
      ...APP_OPTIONS,
      autoFlushLogs: false,
      httpsOptions: tls ? httpsServerOptions(tls) : undefined,
      // With tracing on (`startTracingIfAsked`): spans named after the guards' and handlers' classes.
      ...(tracing ? { instrument: tracing.instrument } : {}),
    },
  );
  configureApp(app);
  // Made before listening, so metrics name the served certificate from the first scrape.
  const reloader =
    config.tls && tls
      ? new CertificateReloader(
          app.getHttpServer() as HttpsServer,
          config.tls,
          tls,
          app.get(ServedCertificate),
        )
      : null;
  const { port, host } = config;
  await app.listen(port, host).catch((error: unknown) => {
    throw listenFailure(error, { port, host });
  });
  reloader?.start();
  app.flushLogs();
  drainOnSignals(app, config.server);
  const listening = app.getHttpServer().address() as AddressInfo;
  await app
    .get(DevelopmentKeyBootstrap)
    .createOnFirstRun(`${tls ? 'https' : 'http'}://localhost:${listening.port}`);
  await reportStartup(listening, config, async () => {
    const state = await app.get(CatalogStateRepository).current();
    return {
      catalogVersion: state.catalogVersion,
      titleCount: state.titleCount,
      keyCount: await app.get(ApiKeyService).count(),
    };
  });
}
