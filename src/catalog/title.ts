/** The Title types of the contract, and the two families the list endpoints serve. */
export const TITLE_TYPES = ['movie', 'tv_movie', 'tv_series', 'tv_mini_series', 'tv_special'] as const;
export type TitleType = (typeof TITLE_TYPES)[number];

export const MOVIE_TYPES: readonly TitleType[] = ['movie', 'tv_movie'];
export const SERIES_TYPES: readonly TitleType[] = ['tv_series', 'tv_mini_series', 'tv_special'];

export const IMDB_ID_PATTERN = /^tt[0-9]+$/;

/** The Title resource: exactly these 22 fields, always present. */
export interface Title {
  id: number;
  imdb_id: string;
  type: TitleType;
  title: string;
  original_title: string | null;
  year: number | null;
  end_year: number | null;
  runtime_minutes: number | null;
  genres: string[] | null;
  content_rating: string | null;
  plot: string | null;
  languages: string[] | null;
  countries: string[] | null;
  directors: string[] | null;
  writers: string[] | null;
  actors: string[] | null;
  awards: string | null;
  poster_url: string | null;
  box_office: string | null;
  production: string | null;
  total_seasons: number | null;
  ratings: { average: number; votes: number };
}

/** A snake_case field name in camelCase: `original_title` → `originalTitle`. */
type CamelCase<Name extends string> = Name extends `${infer Head}_${infer Tail}`
  ? `${Head}${Capitalize<CamelCase<Tail>>}`
  : Name;

/**
 * A title as the catalog stores it, before it has an id (what the loader writes): the Title's
 * fields in camelCase, its rating as two fields, and whether it was enriched.
 */
export type TitleRecord = {
  [Field in Exclude<keyof Title, 'id' | 'ratings'> as CamelCase<Field>]: Title[Field];
} & {
  ratingAverage: number;
  ratingVotes: number;
  /** Whether an enrichment record was applied to this title. */
  enriched: boolean;
};
