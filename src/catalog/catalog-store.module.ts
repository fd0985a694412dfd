import { Module } from '@nestjs/common';
import { ApiKeysModule } from '../auth/api-keys.module';
import { CatalogStateProvider } from './catalog-state.provider';
import { CatalogStateRepository } from './catalog-state.repository';
import { CatalogWriter } from './store/catalog-writer';

/**
 * The catalog's state and its writer, without the routes: what the CLI's ingest needs, so it does not
 * load the controllers, their DTOs and the OpenAPI decorators (about 50 MB of modules).
 */
@Module({
  // The keys' marker, which the state poll reads on the primary for the key directory.
  imports: [ApiKeysModule],
  providers: [CatalogStateRepository, CatalogStateProvider, CatalogWriter],
  exports: [CatalogStateRepository, CatalogStateProvider, CatalogWriter],
})
export class CatalogStoreModule {}
