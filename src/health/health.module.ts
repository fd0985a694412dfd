import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { CatalogModule } from '../catalog/catalog.module';
import { CatalogHealthIndicator } from './catalog.health';
import { HealthController } from './health.controller';
import { HealthServer } from './health.server';
import { HealthService } from './health.service';

@Module({
  imports: [TerminusModule.forRoot({ logger: false }), CatalogModule],
  controllers: [HealthController],
  providers: [CatalogHealthIndicator, HealthService, HealthServer],
  exports: [HealthService],
})
export class HealthModule {}
