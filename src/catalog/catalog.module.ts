import { Module } from '@nestjs/common';
import { ApiKeysModule } from '../auth/api-keys.module';
import { CatalogController } from './catalog.controller';
import { CatalogCaches } from './catalog-caches';
import { CatalogService } from './catalog.service';
import { CatalogStateProvider } from './catalog-state.provider';
import { CatalogStateRepository } from './catalog-state.repository';
import { CatalogWriter } from './store/catalog-writer';
import { SearchDatabase } from '../database/search-database';
import { SearchAdmission } from './search/search-admission';
import { TitleSearchRepository } from './search/title-search.repository';
import { TitleRepository } from './title.repository';

@Module({
  // The keys' marker, which the state poll reads on the primary for the key directory.
  imports: [ApiKeysModule],
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
    CatalogStateRepository,
    CatalogStateProvider,
    CatalogWriter,
  ],
  exports: [CatalogCaches, CatalogStateRepository, CatalogStateProvider, CatalogWriter, SearchAdmission],
})
export class CatalogModule {}
