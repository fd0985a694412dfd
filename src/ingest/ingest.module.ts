import { Module } from '@nestjs/common';
import { CatalogModule } from '../catalog/catalog.module';
import { CatalogIngestService } from './catalog-ingest.service';

@Module({
  imports: [CatalogModule],
  providers: [CatalogIngestService],
  exports: [CatalogIngestService],
})
export class IngestModule {}
