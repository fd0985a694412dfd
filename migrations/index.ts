import { CatalogSchema1763710000000 } from './1763710000000-CatalogSchema';

/** Every migration, in order. New migrations are added here explicitly (no globs). */
export const MIGRATIONS = [CatalogSchema1763710000000];
