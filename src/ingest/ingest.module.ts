import { Module } from '@nestjs/common';
import { CatalogStoreModule } from '../catalog/catalog-store.module';
import { CatalogIngestService } from './catalog-ingest.service';

@Module({
  imports: [CatalogStoreModule],
  providers: [CatalogIngestService],
  exports: [CatalogIngestService],
})
export class IngestModule {}
