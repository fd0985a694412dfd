import { CliError } from '../common/cli/cli-error';

const UNIT_MS: Record<string, number> = {
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
};

/** A rotation's overlap may last at most this long: a longer one is a second key, not a rotation. */
export const MAX_ROTATION_OVERLAP_MS = 30 * UNIT_MS.d;
/** An expiry at most this far ahead (about 10 years): further is a typo, not a plan. */
export const MAX_EXPIRY_AHEAD_MS = 3_660 * UNIT_MS.d;

/**
 * A duration as `<whole number><unit>` with unit s, m, h or d (`90d`, `12h`), or `0`; in
 * milliseconds, within [0, maxMs], or a one-line CLI error naming the option.
 */
export function parseDuration(option: string, value: string, maxMs: number): number {
  const match = /^([0-9]{1,7})([smhd])?$/.exec(value);
  const amount = match ? Number(match[1]) : NaN;
  const unit = match?.[2];
  if (!match || (unit === undefined && amount !== 0)) {
    throw new CliError(
      `${option} must be a duration such as 90d, 12h, 30m or 45s (or 0), not ${JSON.stringify(value)}`,
    );
  }
  const ms = unit === undefined ? 0 : amount * UNIT_MS[unit];
  if (ms > maxMs) {
    throw new CliError(`${option} may be at most ${describeDuration(maxMs)}, not ${JSON.stringify(value)}`);
  }
  return ms;
}

const ISO_INSTANT =
  /^([0-9]{4})-([0-9]{2})-([0-9]{2})(?:T([0-9]{2}):([0-9]{2})(?::([0-9]{2})(?:\.[0-9]{1,9})?)?(Z|[+-][0-9]{2}:[0-9]{2}))?$/;

/**
 * An ISO 8601 instant with its offset (`2027-03-01T12:00:00Z`, `…+02:00`) or a date alone (midnight
 * UTC); a time without an offset is refused, since replicas and operators may not share a zone.
 */
export function parseInstant(option: string, value: string): Date {
  const match = ISO_INSTANT.exec(value);
  const refuse = () =>
    new CliError(
      `${option} must be an ISO 8601 date or a time with its offset (2027-03-01 or 2027-03-01T12:00:00Z), not ${JSON.stringify(value)}`,
    );
  if (!match) throw refuse();
  const [, year, month, day, hour, minute, second] = match;
  const daysInMonth = new Date(Date.UTC(Number(year), Number(month), 0)).getUTCDate();
  if (
    Number(month) < 1 ||
    Number(month) > 12 ||
    Number(day) < 1 ||
    Number(day) > daysInMonth ||
    Number(hour ?? 0) > 23 ||
    Number(minute ?? 0) > 59 ||
    Number(second ?? 0) > 59
  ) {
    throw refuse();
  }
  const instant = new Date(hour === undefined ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(instant.getTime())) throw refuse();
  return instant;
}

/** An expiry the command may store: in the future, and not absurdly far. */
export function checkExpiry(option: string, expiresAt: Date, now: number): Date {
  if (expiresAt.getTime() <= now) {
    throw new CliError(`${option} is in the past (${expiresAt.toISOString()}): give a future instant`);
  }
  if (expiresAt.getTime() - now > MAX_EXPIRY_AHEAD_MS) {
    throw new CliError(`${option} may be at most ${describeDuration(MAX_EXPIRY_AHEAD_MS)} ahead`);
  }
  return expiresAt;
}

export function describeDuration(ms: number): string {
  for (const [unit, size] of [
    ['d', UNIT_MS.d],
    ['h', UNIT_MS.h],
    ['m', UNIT_MS.m],
  ] as const) {
    if (ms % size === 0 && ms >= size) return `${ms / size}${unit}`;
  }
  return `${Math.round(ms / 1000)}s`;
}
