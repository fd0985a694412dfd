import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { RATINGS_COLUMNS } from './imdb-normalizer';
import { IngestInputError } from './ingest-errors';
import { readLines } from './line-reader';
import { readNdjson } from './ndjson-reader';
import { checkTsvHeader, readTsv } from './tsv-reader';

const RATINGS_HEADER = 'tconst\taverageRating\tnumVotes';

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ingest-readers-'));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

let fileCount = 0;

/** Writes a new file in the temporary directory and returns its path. */
const file = (name: string, content: string | Buffer): string => {
  fileCount += 1;
  const path = join(dir, `${fileCount}-${name}`);
  writeFileSync(path, content);
  return path;
};

const gzipped = (text: string): Buffer => gzipSync(Buffer.from(text, 'utf8'));

const collect = async <T>(items: AsyncIterable<T>): Promise<T[]> => {
  const collected: T[] = [];
  for await (const item of items) collected.push(item);
  return collected;
};

/** The IngestInputError that `work` rejects with. */
const inputError = async (work: Promise<unknown>): Promise<IngestInputError> => {
  try {
    await work;
  } catch (error) {
    expect(error).toBeInstanceOf(IngestInputError);
    expect((error as Error).name).toBe('IngestInputError');
    return error as IngestInputError;
  }
  throw new Error('expected an IngestInputError');
};

const texts = async (path: string): Promise<string[]> =>
  (await collect(readLines(path))).map((line) => line.text);

describe('IngestInputError', () => {
  it('names the file and, when given, the line', () => {
    expect(new IngestInputError('/data/basics.tsv', 'is empty').message).toBe('/data/basics.tsv: is empty');
    expect(new IngestInputError('/data/basics.tsv', 'bad row', 7).message).toBe(
      '/data/basics.tsv:7: bad row',
    );
  });
});

describe('readLines', () => {
  it('streams the lines of a plain file with one-based line numbers', async () => {
    const path = file('plain.txt', 'one\ntwo\nthree\n');
    expect(await collect(readLines(path))).toEqual([
      { number: 1, text: 'one' },
      { number: 2, text: 'two' },
      { number: 3, text: 'three' },
    ]);
  });

  it('returns a last line without a line break and counts blank lines', async () => {
    const path = file('blank-lines.txt', 'one\n\n  \nfour');
    expect(await collect(readLines(path))).toEqual([
      { number: 1, text: 'one' },
      { number: 2, text: '' },
      { number: 3, text: '  ' },
      { number: 4, text: 'four' },
    ]);
  });

  it('gives no lines for an empty file', async () => {
    expect(await collect(readLines(file('empty.txt', '')))).toEqual([]);
  });

  it('decompresses a gzip file named .gz', async () => {
    const path = file('lines.txt.gz', gzipped('one\ntwo\n'));
    expect(await collect(readLines(path))).toEqual([
      { number: 1, text: 'one' },
      { number: 2, text: 'two' },
    ]);
  });

  it('detects gzip by its magic bytes whatever the name', async () => {
    expect(await texts(file('title.basics.tsv', gzipped('one\ntwo\n')))).toEqual(['one', 'two']);
    expect(await texts(file('no-extension', gzipped('one\ntwo\n')))).toEqual(['one', 'two']);
  });

  it('reads a plain file named .gz as plain text', async () => {
    expect(await texts(file('not-really.tsv.gz', 'one\ntwo\n'))).toEqual(['one', 'two']);
  });

  it('reads a one-byte file that starts like gzip as plain text', async () => {
    expect(await texts(file('one-byte.gz', Buffer.from([0x1f])))).toEqual(['\u001f']);
  });

  it('accepts \\r\\n line endings, plain and gzip', async () => {
    expect(await texts(file('crlf.txt', 'one\r\ntwo\r\n\r\nfour\r\n'))).toEqual(['one', 'two', '', 'four']);
    expect(await texts(file('crlf.gz', gzipped('one\r\ntwo\r\n')))).toEqual(['one', 'two']);
  });

  it('drops a UTF-8 byte order mark at the start of the file only', async () => {
    expect(await texts(file('bom.txt', '\uFEFFone\ntwo\n'))).toEqual(['one', 'two']);
    expect(await texts(file('bom.gz', gzipped('\uFEFFone\ntwo\n')))).toEqual(['one', 'two']);
    expect(await texts(file('bom-later.txt', 'one\n\uFEFFtwo\n'))).toEqual(['one', '\uFEFFtwo']);
  });

  it('decodes UTF-8 characters split across read chunks', async () => {
    const long = 'é'.repeat(700_000) + '千';
    expect(await texts(file('long.txt', `${long}\nnext\n`))).toEqual([long, 'next']);
    expect(await texts(file('long.gz', gzipped(`${long}\nnext\n`)))).toEqual([long, 'next']);
  });

  it('refuses a missing file, naming the path', async () => {
    const path = join(dir, 'does-not-exist.tsv');
    const error = await inputError(collect(readLines(path)));
    expect(error.message).toContain(path);
    expect(error.message).toContain('ENOENT');
  });

  it('refuses a directory, naming the path', async () => {
    const path = join(dir, 'a-directory');
    mkdirSync(path);
    expect((await inputError(collect(readLines(path)))).message).toContain(path);
  });

  it('refuses a truncated gzip file, naming the path', async () => {
    const whole = gzipped('tt0000001\t5.6\t2000\n'.repeat(50_000));
    const path = file('truncated.tsv.gz', whole.subarray(0, Math.floor(whole.length / 2)));
    expect((await inputError(collect(readLines(path)))).message).toContain(path);

    const small = gzipped('one\ntwo\n');
    const cut = file('cut-trailer.gz', small.subarray(0, small.length - 4));
    expect((await inputError(collect(readLines(cut)))).message).toContain(cut);
  });

  it('refuses a corrupt gzip file, naming the path', async () => {
    const path = file(
      'corrupt.gz',
      Buffer.concat([Buffer.from([0x1f, 0x8b]), Buffer.from('not deflate data at all')]),
    );
    expect((await inputError(collect(readLines(path)))).message).toContain(path);
  });
});

describe('readTsv', () => {
  it('yields the rows after the header with their file line numbers', async () => {
    const path = file('ratings.tsv', `${RATINGS_HEADER}\ntt0111161\t9.3\t2900000\ntt0068646\t9.2\t2000000\n`);
    expect(await collect(readTsv(path, RATINGS_COLUMNS))).toEqual([
      { line: 2, fields: ['tt0111161', '9.3', '2900000'] },
      { line: 3, fields: ['tt0068646', '9.2', '2000000'] },
    ]);
  });

  it('reads gzip files, \\r\\n endings and a byte order mark before the header', async () => {
    const text = `\uFEFF${RATINGS_HEADER}\r\ntt0111161\t9.3\t2900000\r\n`;
    const expected = [{ line: 2, fields: ['tt0111161', '9.3', '2900000'] }];
    expect(await collect(readTsv(file('ratings.tsv.gz', gzipped(text)), RATINGS_COLUMNS))).toEqual(expected);
    expect(await collect(readTsv(file('ratings-crlf.tsv', text), RATINGS_COLUMNS))).toEqual(expected);
  });

  it('yields nothing for a file with only the header', async () => {
    expect(await collect(readTsv(file('header-only.tsv', `${RATINGS_HEADER}\n`), RATINGS_COLUMNS))).toEqual(
      [],
    );
  });

  it('keeps empty fields', async () => {
    const path = file('empty-fields.tsv', `${RATINGS_HEADER}\ntt0111161\t\t\n`);
    expect(await collect(readTsv(path, RATINGS_COLUMNS))).toEqual([
      { line: 2, fields: ['tt0111161', '', ''] },
    ]);
  });

  it('reads a " inside a field as an ordinary character, with no quoting', async () => {
    const path = file('quotes.tsv', 'a\tb\n"Weird" Al\tHe said "hi\n"\t"\n');
    expect(await collect(readTsv(path, ['a', 'b']))).toEqual([
      { line: 2, fields: ['"Weird" Al', 'He said "hi'] },
      { line: 3, fields: ['"', '"'] },
    ]);

    const quotedTab = file('quoted-tab.tsv', 'a\tb\n"one\ttwo"\tthree\n');
    expect((await inputError(collect(readTsv(quotedTab, ['a', 'b'])))).message).toContain(`${quotedTab}:2:`);
  });

  it('ignores empty lines, trailing or not', async () => {
    const path = file('empty-lines.tsv', `${RATINGS_HEADER}\ntt0111161\t9.3\t10\n\ntt0068646\t9.2\t20\n\n\n`);
    expect(await collect(readTsv(path, RATINGS_COLUMNS))).toEqual([
      { line: 2, fields: ['tt0111161', '9.3', '10'] },
      { line: 4, fields: ['tt0068646', '9.2', '20'] },
    ]);
  });

  it.each([
    ['other names', 'tconst\trating\tvotes'],
    ['another order', 'tconst\tnumVotes\taverageRating'],
    ['a missing column', 'tconst\taverageRating'],
    ['an extra column', `${RATINGS_HEADER}\textra`],
    ['a trailing tab', `${RATINGS_HEADER}\t`],
    ['spaces for tabs', 'tconst averageRating numVotes'],
    ['other letter case', 'Tconst\tAverageRating\tNumVotes'],
    ['a leading space', ` ${RATINGS_HEADER}`],
    ['no header, a row first', 'tt0111161\t9.3\t2900000'],
    ['an empty first line', ''],
  ])('refuses a header with %s, naming the path and line 1', async (_label, header) => {
    const path = file('wrong-header.tsv', `${header}\n${RATINGS_HEADER}\ntt0111161\t9.3\t2900000\n`);
    const error = await inputError(collect(readTsv(path, RATINGS_COLUMNS)));
    expect(error.message).toContain(`${path}:1:`);
  });

  it('refuses a row with the wrong number of fields, naming the path and its line', async () => {
    const tooFew = file('too-few.tsv', `${RATINGS_HEADER}\ntt0111161\t9.3\t10\ntt0068646\t9.2\n`);
    expect((await inputError(collect(readTsv(tooFew, RATINGS_COLUMNS)))).message).toContain(`${tooFew}:3:`);

    const tooMany = file('too-many.tsv', `${RATINGS_HEADER}\n\ntt0111161\t9.3\t10\t1\n`);
    expect((await inputError(collect(readTsv(tooMany, RATINGS_COLUMNS)))).message).toContain(`${tooMany}:3:`);

    const spaces = file('spaces.tsv', `${RATINGS_HEADER}\ntt0111161 9.3 10\n`);
    expect((await inputError(collect(readTsv(spaces, RATINGS_COLUMNS)))).message).toContain(`${spaces}:2:`);
  });

  it('yields the rows before a bad row, then refuses it', async () => {
    const path = file('bad-later.tsv', `${RATINGS_HEADER}\ntt0111161\t9.3\t10\nbroken\n`);
    const rows = readTsv(path, RATINGS_COLUMNS);
    expect(await rows.next()).toEqual({
      done: false,
      value: { line: 2, fields: ['tt0111161', '9.3', '10'] },
    });
    expect((await inputError(rows.next())).message).toContain(`${path}:3:`);
  });

  it('refuses an empty file, naming the path', async () => {
    const plain = file('empty.tsv', '');
    expect((await inputError(collect(readTsv(plain, RATINGS_COLUMNS)))).message).toContain(plain);

    const compressed = file('empty.tsv.gz', gzipped(''));
    expect((await inputError(collect(readTsv(compressed, RATINGS_COLUMNS)))).message).toContain(compressed);
  });

  it('refuses a missing file, naming the path', async () => {
    const path = join(dir, 'missing-ratings.tsv');
    expect((await inputError(collect(readTsv(path, RATINGS_COLUMNS)))).message).toContain(path);
  });
});

describe('checkTsvHeader', () => {
  it('accepts the right header without reading the whole file', async () => {
    const plain = file('check.tsv', `${RATINGS_HEADER}\nnot\ta\tvalid\trow\n`);
    await expect(checkTsvHeader(plain, RATINGS_COLUMNS)).resolves.toBeUndefined();

    const compressed = file('check.tsv.gz', gzipped(`${RATINGS_HEADER}\ntt0111161\t9.3\t10\n`));
    await expect(checkTsvHeader(compressed, RATINGS_COLUMNS)).resolves.toBeUndefined();

    await expect(
      checkTsvHeader(file('check-only-header.tsv', RATINGS_HEADER), RATINGS_COLUMNS),
    ).resolves.toBeUndefined();
  });

  it('refuses a wrong header, naming the path and line 1', async () => {
    const path = file('check-wrong.tsv', 'tconst\ttitleType\tprimaryTitle\ntt0111161\tmovie\tX\n');
    expect((await inputError(checkTsvHeader(path, RATINGS_COLUMNS))).message).toContain(`${path}:1:`);
  });

  it('refuses an empty or missing file, naming the path', async () => {
    const empty = file('check-empty.tsv', '');
    expect((await inputError(checkTsvHeader(empty, RATINGS_COLUMNS))).message).toContain(empty);

    const missing = join(dir, 'check-missing.tsv');
    expect((await inputError(checkTsvHeader(missing, RATINGS_COLUMNS))).message).toContain(missing);
  });
});

describe('readNdjson', () => {
  it('yields one object per line with its line number', async () => {
    const path = file(
      'enrichment.ndjson',
      '{"imdbID":"tt0111161","Runtime":"142 min"}\n{"imdbID":"tt0068646","Ratings":[{"Source":"x"}]}\n',
    );
    expect(await collect(readNdjson(path))).toEqual([
      { line: 1, value: { imdbID: 'tt0111161', Runtime: '142 min' } },
      { line: 2, value: { imdbID: 'tt0068646', Ratings: [{ Source: 'x' }] } },
    ]);
  });

  it('skips blank lines while counting them', async () => {
    const path = file('blank.ndjson', '\n{"a":1}\n   \n\t\r\n{"b":2}\n\n');
    expect(await collect(readNdjson(path))).toEqual([
      { line: 2, value: { a: 1 } },
      { line: 5, value: { b: 2 } },
    ]);
  });

  it('reads gzip files, \\r\\n endings and a byte order mark', async () => {
    const text = '\uFEFF{"a":1}\r\n{"b":2}\r\n';
    const expected = [
      { line: 1, value: { a: 1 } },
      { line: 2, value: { b: 2 } },
    ];
    expect(await collect(readNdjson(file('enrichment.gz', gzipped(text))))).toEqual(expected);
    expect(await collect(readNdjson(file('crlf.ndjson', text)))).toEqual(expected);
  });

  it('yields nothing for an empty file', async () => {
    expect(await collect(readNdjson(file('empty.ndjson', '')))).toEqual([]);
  });

  it.each(['{"a":', '{a:1}', "{'a':1}", '{"a":1}}', 'N/A', '{"a":1} {"b":2}'])(
    'refuses malformed JSON %j, naming the path and the line',
    async (line) => {
      const path = file('malformed.ndjson', `{"a":1}\n${line}\n{"b":2}\n`);
      const error = await inputError(collect(readNdjson(path)));
      expect(error.message).toContain(`${path}:2:`);
      expect(error.message).toContain('malformed JSON');
    },
  );

  it.each(['[1,2]', '[]', '[{"a":1}]', '42', 'null', '"text"', 'true'])(
    'refuses a %s line as not a JSON object, naming the path and the line',
    async (line) => {
      const path = file('not-object.ndjson', `\n{"a":1}\n${line}\n`);
      const error = await inputError(collect(readNdjson(path)));
      expect(error.message).toContain(`${path}:3:`);
      expect(error.message).toContain('expected a JSON object');
    },
  );

  it('refuses a missing file, naming the path', async () => {
    const path = join(dir, 'missing.ndjson');
    expect((await inputError(collect(readNdjson(path)))).message).toContain(path);
  });
});

describe('read position', () => {
  it.each([
    ['plain', (text: string) => Buffer.from(text, 'utf8')],
    ['gzip', gzipped],
  ])('reports how far a %s file has been read, in its stored bytes', async (_kind, encode) => {
    // Enough rows that even compressed the file spans many read chunks (a small one may be read
    // whole before the first row is parsed, on a busy machine).
    const rows = Array.from(
      { length: 200_000 },
      (_, i) => `tt${String(i).padStart(7, '0')}\t7.${i % 10}\t${i}`,
    );
    const content = encode([RATINGS_HEADER, ...rows].join('\n'));
    const path = file('ratings.tsv', content);
    const position = { bytesRead: 0, size: 0 };
    const seen: number[] = [];
    let rowsRead = 0;
    for await (const row of readTsv(path, RATINGS_COLUMNS, position)) {
      if (row.fields.length === 3) rowsRead++;
      seen.push(position.bytesRead);
    }
    expect(rowsRead).toBe(rows.length);
    expect(position.size).toBe(content.length);
    expect(position.bytesRead).toBe(content.length);
    expect(seen[0]).toBeLessThan(content.length);
  });
});
