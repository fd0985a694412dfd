import { ApiKeyEntity } from './auth/api-key.entity';
import { CatalogStateEntity } from './catalog/catalog-state.entity';

/** Every TypeORM entity, listed explicitly (no globs); the root modules give it to `DatabaseModule`. */
export const ENTITIES = [CatalogStateEntity, ApiKeyEntity];
