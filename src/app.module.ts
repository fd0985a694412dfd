import { type DynamicModule, Module, type ModuleMetadata } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { ApiReferenceModule } from './api-reference/api-reference.module';
import { AuthModule } from './auth/auth.module';
import { ApiKeyGuard } from './auth/api-key.guard';
import { ApiKeysModule } from './auth/api-keys.module';
import { DevelopmentKeyBootstrap } from './auth/development-key.bootstrap';
import { CatalogModule } from './catalog/catalog.module';
import { AllExceptionsFilter } from './common/errors/all-exceptions.filter';
import { LoggingModule } from './common/logging/logging.module';
import { KnownRoutesModule } from './common/routing/known-routes';
import { type AppConfig, loadConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { ENTITIES } from './entities';
import { HealthModule } from './health/health.module';
import { IngestModule } from './ingest/ingest.module';
import { LimitsGuard } from './limits/limits.guard';
import { QuotaModule } from './limits/quota.module';
import { SampleCatalogBootstrap } from './ingest/sample-catalog.bootstrap';
import { ServerModule } from './server/server.module';
import { UsageModule } from './usage/usage.module';
import { MetricsModule } from './metrics/metrics.module';
import { OpenApiModule } from './openapi/openapi.module';
import { RouteDefaultsGuard, RouteDefaultsModule } from './route-kit/route-defaults';

/** What a team adds to the service when it starts it (docs/extending.md). */
export interface AppOptions {
  /**
   * Feature modules served beside the built-in ones: their routes get the same guards (API key,
   * limits), error filter, request ids, logging, metrics and OpenAPI scan as the catalog's.
   */
  modules?: NonNullable<ModuleMetadata['imports']>;
}

/** The HTTP service. Tests build it from a literal config; `main.ts` from the environment. */
@Module({})
export class AppModule {
  static forRoot(config: AppConfig = loadConfig(), { modules = [] }: AppOptions = {}): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        LoggingModule.forRoot(config),
        DatabaseModule.forRoot(ENTITIES, { listen: true }),
        ApiKeysModule,
        AuthModule,
        QuotaModule,
        UsageModule,
        CatalogModule,
        IngestModule,
        HealthModule,
        ServerModule,
        OpenApiModule,
        ApiReferenceModule,
        KnownRoutesModule,
        RouteDefaultsModule,
        MetricsModule.forRoot(config),
        ...modules,
      ],
      providers: [
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
        // The contract's order of checks: API key, then the limits (minute, then month); routes marked
        // @Public() skip both. Query validation and the handler come after.
        { provide: APP_GUARD, useExisting: ApiKeyGuard },
        { provide: APP_GUARD, useExisting: LimitsGuard },
        // Then, for a route written as plain NestJS, its query and its envelope (route-kit/route-defaults.ts).
        { provide: APP_GUARD, useExisting: RouteDefaultsGuard },
        // Called by the server once it listens (`startServer`); it checks the first-run setting itself.
        DevelopmentKeyBootstrap,
        ...(config.firstRunSetup && config.database.kind === 'embedded' ? [SampleCatalogBootstrap] : []),
      ],
    };
  }
}
