import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
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
  // The search route's UnchargedRefusalFilter (overload refusals get their month back); the keys'
  // marker, which the state poll reads on the primary for the key directory.
  imports: [LimitsModule, AuthModule],
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
