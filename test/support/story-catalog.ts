import { type FixtureFiles, basicsRow, ratingsRow } from './imdb-files';

/** A catalog of `count` titles named `<marker> Story <i>`, all of one year: old and new are told apart by marker and year. */
export interface StoryCatalog {
  count: number;
  marker: string;
  year: number;
}

/** IMDb files for `spec` (every third title a series, the rest movies), written into `files`. */
export function storyCatalogFiles(
  files: FixtureFiles,
  name: string,
  spec: StoryCatalog,
  imdbId: (i: number) => string,
): { basics: string; ratings: string } {
  return {
    basics: files.basics(
      `${name}.tsv`,
      Array.from({ length: spec.count }, (_, i) =>
        basicsRow(imdbId(i), i % 3 === 0 ? 'tvSeries' : 'movie', `${spec.marker} Story ${i}`, {
          year: spec.year,
        }),
      ),
    ),
    ratings: files.ratings(
      `${name}-ratings.tsv`,
      Array.from({ length: spec.count }, (_, i) => ratingsRow(imdbId(i), '7.0', 1_000 + i)),
    ),
  };
}
