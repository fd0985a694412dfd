import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

export const BASICS_HEADER =
  'tconst\ttitleType\tprimaryTitle\toriginalTitle\tisAdult\tstartYear\tendYear\truntimeMinutes\tgenres';
export const RATINGS_HEADER = 'tconst\taverageRating\tnumVotes';

/** A title.basics row; `\N` where a value is absent, as IMDb writes it. */
export function basicsRow(
  tconst: string,
  type: string,
  title: string,
  fields: {
    original?: string;
    year?: number;
    end?: number;
    runtime?: number;
    genres?: string;
    adult?: boolean;
  } = {},
): string {
  const value = (v: string | number | undefined) => (v === undefined ? '\\N' : String(v));
  return [
    tconst,
    type,
    title,
    fields.original ?? title,
    fields.adult ? '1' : '0',
    value(fields.year),
    value(fields.end),
    value(fields.runtime),
    value(fields.genres),
  ].join('\t');
}

export function ratingsRow(tconst: string, average: string, votes: number): string {
  return `${tconst}\t${average}\t${votes}`;
}

/** Files in a fresh temporary folder, removed by `cleanup()`. */
export class FixtureFiles {
  readonly dir = mkdtempSync(join(tmpdir(), 'catalog-ingest-'));

  write(name: string, lines: string[], options: { gzip?: boolean } = {}): string {
    const path = join(this.dir, name);
    const content = Buffer.from(`${lines.join('\n')}\n`, 'utf8');
    writeFileSync(path, options.gzip ? gzipSync(content) : content);
    return path;
  }

  basics(name: string, rows: string[], options: { gzip?: boolean } = {}): string {
    return this.write(name, [BASICS_HEADER, ...rows], options);
  }

  ratings(name: string, rows: string[]): string {
    return this.write(name, [RATINGS_HEADER, ...rows]);
  }

  enrichment(name: string, objects: object[]): string {
    return this.write(
      name,
      objects.map((object) => JSON.stringify(object)),
    );
  }

  cleanup(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** An OMDb by-id response with every field "N/A" unless given. */
export function omdbObject(imdbID: string, fields: Record<string, string> = {}): Record<string, unknown> {
  const na = 'N/A';
  return {
    Title: na,
    Year: na,
    Rated: na,
    Released: na,
    Runtime: na,
    Genre: na,
    Director: na,
    Writer: na,
    Actors: na,
    Plot: na,
    Language: na,
    Country: na,
    Awards: na,
    Poster: na,
    Ratings: [],
    Metascore: na,
    imdbRating: na,
    imdbVotes: na,
    imdbID,
    Type: 'movie',
    DVD: na,
    BoxOffice: na,
    Production: na,
    Website: na,
    Response: 'True',
    ...fields,
  };
}
