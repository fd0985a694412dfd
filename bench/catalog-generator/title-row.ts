/** The IMDb title types and genres the generator draws from, and the row every output is built from. */
import { weighted } from './random';
import { GENRE_WEIGHTS, type Language } from './vocabulary';

export type ImdbType =
  | 'movie'
  | 'tvSeries'
  | 'tvMiniSeries'
  | 'tvMovie'
  | 'tvSpecial'
  | 'tvEpisode'
  | 'short'
  | 'video'
  | 'videoGame'
  | 'tvShort'
  | 'tvPilot';

/** The types the importer keeps; every other type is a row it must skip. */
export const KEPT_TYPES: ReadonlySet<ImdbType> = new Set<ImdbType>([
  'movie',
  'tvSeries',
  'tvMiniSeries',
  'tvMovie',
  'tvSpecial',
]);

/** Share of all basics rows per type: 70% kept, 30% excluded. */
export const TYPE_MIX = weighted<ImdbType>({
  movie: 45,
  tvSeries: 12,
  tvMiniSeries: 3,
  tvMovie: 8,
  tvSpecial: 2,
  tvEpisode: 19.9,
  short: 5,
  video: 3,
  videoGame: 1,
  tvShort: 1,
  tvPilot: 0.1,
});

/** Genres of feature-length titles; Adult and Short are added by the row's type and flag instead. */
export const GENRE_MIX = weighted(GENRE_WEIGHTS);

export interface TitleRow {
  id: string;
  type: ImdbType;
  title: string;
  original: string;
  language: Language | null;
  isAdult: boolean;
  startYear: number | null;
  endYear: number | null;
  runtime: number | null;
  genres: string[] | null;
  rating: number | null;
  votes: number;
  /** For an episode, the latest series generated before it (null if none yet); null for other types. */
  seriesId: string | null;
}
