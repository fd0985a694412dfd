import type { Readable } from 'node:stream';
import type { SqlExecutor, SqlSession } from '../../database/database';
import type { TitleRecord } from '../title';
import { NOT_ENRICHED, STAGED_COLUMNS } from '../title-columns';
import { mergeStagedTitles } from './merge';
import { combineStagedTitles, createStagingTables, stageEnrichment, stageTitles } from './staging';

/** A session that records its SQL; COPY input is collected as text when `copy` is set. */
function recordingSession(copy: boolean) {
  const statements: Array<{ sql: string; params?: readonly unknown[] }> = [];
  const copied: string[] = [];
  const query = async <Row>(sql: string, params?: readonly unknown[]): Promise<Row[]> => {
    statements.push({ sql: sql.replace(/\s+/g, ' ').trim(), params });
    return [{ count: 0 }] as Row[];
  };
  const session: SqlSession = {
    query,
    transaction: (work: (tx: SqlExecutor) => Promise<unknown>) => work({ query }),
    copyFrom: copy
      ? async (copySql: string, source: Readable) => {
          copied.push(copySql);
          for await (const chunk of source) copied.push(String(chunk));
        }
      : null,
  } as SqlSession;
  return { session, statements, copied };
}

const record = (changes: Partial<TitleRecord> = {}): TitleRecord => ({
  imdbId: 'tt0000001',
  type: 'tv_series',
  title: 'The Wire',
  originalTitle: null,
  year: 2002,
  endYear: 2008,
  runtimeMinutes: 60,
  genres: ['Crime', 'Drama'],
  ...NOT_ENRICHED,
  plot: 'Tab\there, back\\slash\nnewline',
  ratingAverage: 9.3,
  ratingVotes: 100,
  ...changes,
});

describe('staging derived from TITLE_COLUMNS', () => {
  it('creates the staging tables with every staged column, lists as text', async () => {
    const { session, statements } = recordingSession(true);
    await createStagingTables(session);
    expect(statements.map((s) => s.sql)).toEqual([
      'DROP TABLE IF EXISTS title_staging, title_input_staging, rating_staging, enrichment_staging',
      'CREATE TEMP TABLE title_input_staging (imdb_id text PRIMARY KEY, type text NOT NULL, title text NOT NULL, ' +
        'original_title text, year integer, end_year integer, runtime_minutes integer, genres text, ' +
        'content_rating text, plot text, languages text, countries text, directors text, writers text, ' +
        'actors text, awards text, poster_url text, box_office text, production text, total_seasons integer, ' +
        'rating_average numeric(3,1) NOT NULL, rating_votes integer NOT NULL, enriched boolean NOT NULL, ' +
        'search_lexemes text NOT NULL, search_title_key text NOT NULL, search_title_bare_key text NOT NULL, ' +
        'search_original_key text, search_original_bare_key text, search_word_sets text NOT NULL)',
      'CREATE TEMP TABLE rating_staging (seq integer NOT NULL, imdb_id text NOT NULL, ' +
        'rating_average numeric(3,1) NOT NULL, rating_votes integer NOT NULL)',
      'CREATE TEMP TABLE enrichment_staging (seq integer NOT NULL, imdb_id text NOT NULL, ' +
        'runtime_minutes integer, genres text, content_rating text, plot text, languages text, countries text, ' +
        'directors text, writers text, actors text, awards text, poster_url text, box_office text, ' +
        'production text, total_seasons integer)',
    ]);
  });

  it('COPYs a title as one text row: lists joined, nulls as \\N, escapes, then the search text', async () => {
    const { session, copied } = recordingSession(true);
    await stageTitles(session, [record()]);
    expect(copied[0]).toBe(
      'COPY title_input_staging (imdb_id, type, title, original_title, year, end_year, runtime_minutes, genres, ' +
        'content_rating, plot, languages, countries, directors, writers, actors, awards, poster_url, ' +
        'box_office, production, total_seasons, rating_average, rating_votes, enriched, search_lexemes, ' +
        'search_title_key, search_title_bare_key, search_original_key, search_original_bare_key, search_word_sets) FROM STDIN',
    );
    const fields = copied.slice(1).join('').split('\t');
    expect(fields.slice(0, 23)).toEqual([
      'tt0000001',
      'tv_series',
      'The Wire',
      '\\N',
      '2002',
      '2008',
      '60',
      'Crime\u001fDrama',
      '\\N',
      'Tab\\there, back\\\\slash\\nnewline',
      ...Array<string>(10).fill('\\N'),
      '9.3',
      '100',
      'false',
    ]);
    expect(fields).toHaveLength(29);
  });

  it('stages enrichment records as read, lists as one text value', async () => {
    const { session, statements } = recordingSession(false);
    await stageEnrichment(session, [{ ...record(), imdbId: 'tt0000002' }]);
    expect(statements).toHaveLength(1);
    expect(statements[0].sql).toMatch(
      /^INSERT INTO enrichment_staging \(seq, imdb_id, runtime_minutes, genres,/,
    );
    expect(statements[0].params?.slice(0, 4)).toEqual([0, 'tt0000002', 60, 'Crime\u001fDrama']);
  });

  it('combines titles with their latest rating and enrichment by the precedence rule', async () => {
    const { session, statements } = recordingSession(false);
    await combineStagedTitles(session);
    const combine = statements[0].sql;
    expect(combine).toMatch(
      /^CREATE TEMP TABLE title_staging AS SELECT s\.imdb_id AS imdb_id, s\.type AS type,/,
    );
    expect(combine).toContain(
      'CASE WHEN x.imdb_id IS NULL THEN s.runtime_minutes ELSE coalesce(s.runtime_minutes, x.runtime_minutes) END AS runtime_minutes',
    );
    expect(combine).toContain(
      'CASE WHEN x.imdb_id IS NULL THEN s.plot ELSE coalesce(x.plot, s.plot) END AS plot',
    );
    expect(combine).toContain(
      'CASE WHEN x.imdb_id IS NULL THEN s.total_seasons ELSE CASE WHEN s.type = ANY($1::text[]) ' +
        'THEN coalesce(x.total_seasons, s.total_seasons) END END AS total_seasons',
    );
    expect(combine).toContain(
      'CASE WHEN r.imdb_id IS NULL THEN s.rating_votes ELSE r.rating_votes END AS rating_votes',
    );
    expect(combine).toContain('CASE WHEN x.imdb_id IS NULL THEN s.enriched ELSE true END AS enriched');
    // Every staged column, in table order (the row digest, md5 of the whole row, depends on it),
    // then the search text as staged.
    const columns = [...combine.matchAll(/ AS (\w+)(?=,| FROM)/g)].map((match) => match[1]);
    expect(columns).toEqual(STAGED_COLUMNS.map((c) => c.column));
    expect(combine).toContain(
      'AS enriched, s.search_lexemes, s.search_title_key, s.search_title_bare_key, s.search_original_key, ' +
        's.search_original_bare_key, s.search_word_sets FROM title_input_staging s',
    );
    expect(combine).toContain(
      'LEFT JOIN (SELECT * FROM rating_staging side WHERE NOT EXISTS (SELECT 1 FROM rating_staging later ' +
        'WHERE later.imdb_id = side.imdb_id AND later.seq > side.seq)) r ON r.imdb_id = s.imdb_id',
    );
    expect(combine).toContain(
      'LEFT JOIN (SELECT * FROM enrichment_staging side WHERE NOT EXISTS (SELECT 1 FROM enrichment_staging later ' +
        'WHERE later.imdb_id = side.imdb_id AND later.seq > side.seq)) x ON x.imdb_id = s.imdb_id',
    );
    expect(statements[0].params).toEqual([['tv_series', 'tv_mini_series', 'tv_special']]);
    expect(statements[1].sql).toBe('DROP TABLE title_input_staging, rating_staging, enrichment_staging');
    expect(statements[2].sql).toBe('ANALYZE title_staging');
  });
});

describe('merge derived from TITLE_COLUMNS', () => {
  it('writes every column but the identity, lists split again, the row digest as source_hash', async () => {
    const { session, statements } = recordingSession(true);
    await mergeStagedTitles(session, 'v1');
    const update = statements.find((s) => s.sql.includes('UPDATE titles t'))!.sql;
    expect(update).toContain(
      'UPDATE titles t SET (imdb_id, type, title, original_title, year, end_year, runtime_minutes, genres, ' +
        'content_rating, plot, languages, countries, directors, writers, actors, awards, poster_url, ' +
        'box_office, production, total_seasons, rating_average, rating_votes, enriched, source_hash) = ' +
        "(s.imdb_id, s.type, s.title, s.original_title, s.year, s.end_year, s.runtime_minutes, string_to_array(s.genres, E'\\x1f'),",
    );
    // The digest is the row's text form without the derived word sets: what md5(s::text) was before them.
    const digest =
      'md5(ROW(s.imdb_id, s.type, s.title, s.original_title, s.year, s.end_year, s.runtime_minutes, s.genres, ' +
      's.content_rating, s.plot, s.languages, s.countries, s.directors, s.writers, s.actors, s.awards, ' +
      's.poster_url, s.box_office, s.production, s.total_seasons, s.rating_average, s.rating_votes, s.enriched, ' +
      's.search_lexemes, s.search_title_key, s.search_title_bare_key, s.search_original_key, ' +
      's.search_original_bare_key)::text)';
    expect(update).toContain(`s.rating_votes, s.enriched, ${digest})`);
    expect(update).toContain(`t.source_hash IS DISTINCT FROM ${digest}`);
    const insert = statements.find((s) => s.sql.includes('INSERT INTO titles'))!.sql;
    // New titles are numbered after the sequence's last id, in imdb_id order.
    expect(insert).toContain('INSERT INTO titles (id, imdb_id, type,');
    expect(insert).toContain('$1::bigint + row_number() OVER (ORDER BY length(s.imdb_id), s.imdb_id) AS id');
  });
});
