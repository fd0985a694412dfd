import { Module } from '@nestjs/common';
import { LimitsModule } from '../limits/limits.module';
import { CatalogController } from './catalog.controller';
import { CatalogCaches } from './catalog-caches';
import { CatalogService } from './catalog.service';
import { CatalogStateProvider } from './catalog-state.provider';
import { CatalogStateRepository } from './catalog-state.repository';
import { CatalogWriter } from './store/catalog-writer';
import { SearchAdmission } from './search/search-admission';
import { TitleSearchRepository } from './search/title-search.repository';
import { TitleRepository } from './title.repository';

@Module({
  // The search route's UnchargedRefusalFilter (overload refusals get their month back).
  imports: [LimitsModule],
  controllers: [CatalogController],
  providers: [
    CatalogService,
    CatalogCaches,
    TitleRepository,
    TitleSearchRepository,
    SearchAdmission,
    CatalogStateRepository,
    CatalogStateProvider,
    CatalogWriter,
  ],
  exports: [CatalogCaches, CatalogStateRepository, CatalogStateProvider, CatalogWriter, SearchAdmission],
})
export class CatalogModule {}
