import {
  type DynamicModule,
  type MiddlewareConsumer,
  Module,
  type NestModule,
  Optional,
} from '@nestjs/common';
import { Registry, collectDefaultMetrics } from 'prom-client';
import { CatalogModule } from '../catalog/catalog.module';
import { AuthModule } from '../auth/auth.module';
import { HealthModule } from '../health/health.module';
import type { AppConfig } from '../config/app-config';
import { CacheMetrics } from './cache.metrics';
import { CatalogMetrics } from './catalog.metrics';
import { ChangeFeedMetrics } from './change-feed.metrics';
import { ConnectionMetrics } from './connection.metrics';
import { DatabasePoolMetrics, SearchPoolMetrics } from './database-pool.metrics';
import { DependencyMetrics } from './dependency.metrics';
import { HttpMetrics } from './http-metrics';
import { HealthMetrics } from './health.metrics';
import { LogPipelineMetrics } from './log-pipeline.metrics';
import { HttpMetricsMiddleware } from './http-metrics.middleware';
import { KeyLifecycleMetrics } from './key-lifecycle.metrics';
import { KeyQuotaMetrics } from './key-quota.metrics';
import { MetricsServer } from './metrics.server';
import { ReadTargetMetrics } from './read-target.metrics';
import { SearchAdmissionMetrics } from './search-admission.metrics';
import { TlsCertificateMetrics } from './tls-certificate.metrics';

/**
 * Prometheus metrics on their own port (METRICS_PORT). Without it the module is empty: nothing is
 * measured and nothing listens.
 */
@Module({})
export class MetricsModule implements NestModule {
  static forRoot(config: AppConfig): DynamicModule {
    if (config.metricsPort === null) return { module: MetricsModule };
    return {
      module: MetricsModule,
      imports: [CatalogModule, HealthModule, AuthModule],
      providers: [
        {
          // One registry per application (not prom-client's global one), so several apps in one
          // process (the tests) never share or clash over series.
          provide: Registry,
          useFactory: () => {
            const registry = new Registry();
            collectDefaultMetrics({ register: registry });
            return registry;
          },
        },
        HttpMetrics,
        HttpMetricsMiddleware,
        DatabasePoolMetrics,
        CatalogMetrics,
        CacheMetrics,
        SearchPoolMetrics,
        SearchAdmissionMetrics,
        ReadTargetMetrics,
        ChangeFeedMetrics,
        DependencyMetrics,
        TlsCertificateMetrics,
        HealthMetrics,
        LogPipelineMetrics,
        ConnectionMetrics,
        KeyLifecycleMetrics,
        KeyQuotaMetrics,
        MetricsServer,
      ],
    };
  }

  constructor(@Optional() private readonly httpMetrics?: HttpMetrics) {}

  configure(consumer: MiddlewareConsumer): void {
    if (this.httpMetrics) consumer.apply(HttpMetricsMiddleware).forRoutes('*');
  }
}
