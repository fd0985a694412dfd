import { CliError } from '../common/cli/cli-error';
import {
  MAX_EXPIRY_AHEAD_MS,
  MAX_ROTATION_OVERLAP_MS,
  checkExpiry,
  describeDuration,
  parseDuration,
  parseInstant,
} from './key-lifetime';

describe('parseDuration', () => {
  it.each([
    ['0', 0],
    ['45s', 45_000],
    ['30m', 1_800_000],
    ['12h', 43_200_000],
    ['90d', 90 * 86_400_000],
    ['0d', 0],
  ])('reads %s', (text, ms) => {
    expect(parseDuration('--in', text, MAX_EXPIRY_AHEAD_MS)).toBe(ms);
  });

  it.each(['', '5', '-1d', '1.5h', '1w', 'd', '1 d', ' 1d', '1D', '12345678d'])(
    'refuses %j naming the option',
    (text) => {
      expect(() => parseDuration('--overlap', text, MAX_ROTATION_OVERLAP_MS)).toThrow(CliError);
      expect(() => parseDuration('--overlap', text, MAX_ROTATION_OVERLAP_MS)).toThrow(/--overlap/);
    },
  );

  it('refuses more than the maximum, saying what it is', () => {
    expect(parseDuration('--overlap', '30d', MAX_ROTATION_OVERLAP_MS)).toBe(MAX_ROTATION_OVERLAP_MS);
    expect(() => parseDuration('--overlap', '31d', MAX_ROTATION_OVERLAP_MS)).toThrow(
      '--overlap may be at most 30d, not "31d"',
    );
    expect(() => parseDuration('--overlap', '721h', MAX_ROTATION_OVERLAP_MS)).toThrow(/at most 30d/);
  });
});

describe('parseInstant', () => {
  it.each([
    ['2027-03-01', '2027-03-01T00:00:00.000Z'],
    ['2027-03-01T12:00Z', '2027-03-01T12:00:00.000Z'],
    ['2027-03-01T12:00:30Z', '2027-03-01T12:00:30.000Z'],
    ['2027-03-01T12:00:30.250Z', '2027-03-01T12:00:30.250Z'],
    ['2027-03-01T12:00:00+02:00', '2027-03-01T10:00:00.000Z'],
    ['2028-02-29T00:00:00-05:30', '2028-02-29T05:30:00.000Z'],
  ])('reads %s', (text, iso) => {
    expect(parseInstant('--at', text).toISOString()).toBe(iso);
  });

  it.each([
    '2027-03-01T12:00:00',
    '2027-02-29',
    '2027-13-01',
    '2027-04-31T00:00Z',
    '2027-03-01T24:00Z',
    '2027-03-01T12:60Z',
    'tomorrow',
    '1700000000',
    '',
  ])('refuses %j naming the option', (text) => {
    expect(() => parseInstant('--expires-at', text)).toThrow(CliError);
    expect(() => parseInstant('--expires-at', text)).toThrow(/--expires-at/);
  });
});

describe('checkExpiry', () => {
  const now = Date.parse('2026-11-29T05:00:00Z');

  it('keeps a future instant', () => {
    expect(checkExpiry('--at', new Date(now + 1), now).getTime()).toBe(now + 1);
  });

  it.each([0, -1, -86_400_000])('refuses an instant %d ms from now as in the past', (offset) => {
    expect(() => checkExpiry('--at', new Date(now + offset), now)).toThrow(/--at is in the past/);
  });

  it('refuses an instant beyond the maximum', () => {
    expect(() => checkExpiry('--at', new Date(now + MAX_EXPIRY_AHEAD_MS + 1), now)).toThrow(/at most/);
  });
});

describe('describeDuration', () => {
  it.each([
    [MAX_ROTATION_OVERLAP_MS, '30d'],
    [3_600_000, '1h'],
    [90_000, '90s'],
  ])('describes %d ms as %s', (ms, text) => {
    expect(describeDuration(ms)).toBe(text);
  });
});
