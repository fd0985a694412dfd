import { CatalogSchema1763710000000 } from './1763710000000-CatalogSchema';
import { ApiKeysAndUsage1763720000000 } from './1763720000000-ApiKeysAndUsage';
import { TitleSourceHash1763730000000 } from './1763730000000-TitleSourceHash';
import { SearchTables1763740000000 } from './1763740000000-SearchTables';
import { AllowanceCounters1763750000000 } from './1763750000000-AllowanceCounters';
import { SearchWordSets1763760000000 } from './1763760000000-SearchWordSets';
import { CatalogLoadNumber1763770000000 } from './1763770000000-CatalogLoadNumber';
import { KeyLifecycle1763780000000 } from './1763780000000-KeyLifecycle';
import { KeyLastUse1763790000000 } from './1763790000000-KeyLastUse';

/** Every migration, in order. New migrations are added here explicitly (no globs). */
export const MIGRATIONS = [
  CatalogSchema1763710000000,
  ApiKeysAndUsage1763720000000,
  TitleSourceHash1763730000000,
  SearchTables1763740000000,
  AllowanceCounters1763750000000,
  SearchWordSets1763760000000,
  CatalogLoadNumber1763770000000,
  KeyLifecycle1763780000000,
  KeyLastUse1763790000000,
];
