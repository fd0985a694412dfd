import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { CatalogModule } from '../catalog/catalog.module';
import { CatalogHealthIndicator } from './catalog.health';
import { HealthController } from './health.controller';

@Module({
  imports: [TerminusModule.forRoot({ logger: false }), CatalogModule],
  controllers: [HealthController],
  providers: [CatalogHealthIndicator],
})
export class HealthModule {}
