import { CliError } from './cli-error';
import { parseCliInteger, parseCliText } from './cli-options';

const cliErrorMessage = (work: () => unknown): string => {
  try {
    work();
  } catch (error) {
    expect(error).toBeInstanceOf(CliError);
    return (error as CliError).message;
  }
  throw new Error('expected a CliError');
};

describe('parseCliInteger', () => {
  it('accepts decimal digits within the range, the bounds included', () => {
    expect(parseCliInteger('--rpm', '1', 1, 1_000_000)).toBe(1);
    expect(parseCliInteger('--rpm', '60', 1, 1_000_000)).toBe(60);
    expect(parseCliInteger('--rpm', '1000000', 1, 1_000_000)).toBe(1_000_000);
    expect(parseCliInteger('--rpm', '007', 1, 1_000_000)).toBe(7);
    expect(parseCliInteger('--monthly-quota', '1000000000000', 1, 1_000_000_000_000)).toBe(1_000_000_000_000);
    expect(parseCliInteger('--n', '9007199254740991', 0, Number.MAX_SAFE_INTEGER)).toBe(
      Number.MAX_SAFE_INTEGER,
    );
  });

  it.each([
    '',
    '1.5',
    '1.0',
    '-1',
    '+1',
    '1e3',
    '0x10',
    ' 1',
    '1 ',
    '1_000',
    '1,000',
    'abc',
    '١٢',
    'Infinity',
    'NaN',
  ])('refuses %j, naming the option and the range', (value) => {
    expect(cliErrorMessage(() => parseCliInteger('--rpm', value, 1, 1_000_000))).toBe(
      `--rpm must be a whole number from 1 to 1000000, not ${JSON.stringify(value)}`,
    );
  });

  it('refuses numbers outside the range', () => {
    expect(cliErrorMessage(() => parseCliInteger('--rpm', '0', 1, 1_000_000))).toBe(
      '--rpm must be a whole number from 1 to 1000000, not "0"',
    );
    expect(cliErrorMessage(() => parseCliInteger('--rpm', '1000001', 1, 1_000_000))).toContain('--rpm');
    expect(
      cliErrorMessage(() => parseCliInteger('--monthly-quota', '1000000000001', 1, 1_000_000_000_000)),
    ).toBe('--monthly-quota must be a whole number from 1 to 1000000000000, not "1000000000001"');
  });

  it('refuses integers too large to hold exactly, even without an upper bound', () => {
    for (const value of ['9007199254740992', '9007199254740993', '99999999999999999999', '1'.repeat(400)]) {
      expect(cliErrorMessage(() => parseCliInteger('--n', value, 0, Infinity))).toContain(
        '--n must be a whole number',
      );
    }
  });
});

describe('parseCliText', () => {
  it('returns the trimmed text', () => {
    expect(parseCliText('--name', 'partner', 100)).toBe('partner');
    expect(parseCliText('--name', '  mobile app \t', 100)).toBe('mobile app');
    expect(parseCliText('--name', 'Ünïcödé – 名前', 100)).toBe('Ünïcödé – 名前');
  });

  it('accepts exactly the maximum length, counted after trimming', () => {
    expect(parseCliText('--name', 'x'.repeat(100), 100)).toBe('x'.repeat(100));
    expect(parseCliText('--name', ` ${'x'.repeat(100)} `, 100)).toBe('x'.repeat(100));
  });

  it.each([
    ['empty', ''],
    ['blank', '   '],
    ['only tabs and newlines', '\t\n'],
    ['one character too long', 'x'.repeat(101)],
    ['a tab inside', 'a\tb'],
    ['a newline inside', 'a\nb'],
    ['a carriage return inside', 'a\rb'],
    ['an escape sequence', 'red\u001b[31m'],
    ['a NUL', 'a\u0000b'],
    ['a DEL', 'a\u007fb'],
    ['a C1 control', 'a\u0085b'],
  ])('refuses %s text, naming the option', (_case, value) => {
    expect(cliErrorMessage(() => parseCliText('--name', value, 100))).toBe(
      '--name must be 1 to 100 printable characters',
    );
  });
});
