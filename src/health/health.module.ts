import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { CatalogModule } from '../catalog/catalog.module';
import { QuotaModule } from '../limits/quota.module';
import { CatalogHealthIndicator } from './catalog.health';
import { HealthController } from './health.controller';
import { HealthServer } from './health.server';
import { HealthService } from './health.service';
import { RedisHealthIndicator } from './redis.health';

@Module({
  imports: [TerminusModule.forRoot({ logger: false }), CatalogModule, QuotaModule],
  controllers: [HealthController],
  providers: [CatalogHealthIndicator, RedisHealthIndicator, HealthService, HealthServer],
  exports: [HealthService, RedisHealthIndicator],
})
export class HealthModule {}
