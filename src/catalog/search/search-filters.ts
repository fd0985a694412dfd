import type { TitleType } from '../title';

/** What a search may narrow its matches to, besides its text: one title type, one start year. */
export interface SearchFilters {
  type?: TitleType;
  year?: number;
}
