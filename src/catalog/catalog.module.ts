import { Module } from '@nestjs/common';
import { CatalogController } from './catalog.controller';
import { CatalogCaches } from './catalog-caches';
import { CatalogService } from './catalog.service';
import { CatalogStoreModule } from './catalog-store.module';
import { SearchDatabase } from '../database/search-database';
import { SearchAdmission } from './search/search-admission';
import { TitleSearchRepository } from './search/title-search.repository';
import { TitleRepository } from './title.repository';

@Module({
  imports: [CatalogStoreModule],
  controllers: [CatalogController],
  providers: [
    CatalogService,
    CatalogCaches,
    TitleRepository,
    TitleSearchRepository,
    {
      provide: SearchAdmission,
      inject: [SearchDatabase],
      useFactory: (searchDatabase: SearchDatabase) =>
        new SearchAdmission({ concurrency: searchDatabase.concurrency }),
    },
  ],
  exports: [CatalogStoreModule, CatalogCaches, SearchAdmission],
})
export class CatalogModule {}
