import type { ErrorCode } from '../common/errors/error-catalogue';
import type { KeyPolicy } from './key-policy';
import { nextUtcMonthStart, secondsUntilNextUtcMonth, utcMonthLengthMs } from './utc-month';

/**
 * How a limit's windows run. A window starts with the key's first request in it and lasts `ttlMs`;
 * a calendar window (the month) ends at a fixed instant whenever it started.
 */
export interface LimitWindow {
  /** How long a window started at `now` lasts (ms): the named throttler's ttl. */
  ttlMs(now: number): number;
  /** The window's length in whole seconds: `w` of the RateLimit-Policy field (changes only at a `calendarEnd`). */
  seconds(now: number): number;
  /** When the calendar window holding `now` ends (epoch ms); null for a window without one. */
  calendarEnd(now: number): number | null;
}

/** Windows of a fixed length from the key's first request (the contract allows it for the minute). */
export function rollingWindow(ms: number): LimitWindow {
  return { ttlMs: () => ms, seconds: () => ms / 1000, calendarEnd: () => null };
}

/** The UTC calendar month: a window ends at 00:00:00 UTC on the first of the next month. */
export const UTC_MONTH_WINDOW: LimitWindow = {
  ttlMs: (now) => Math.max(1, nextUtcMonthStart(now) - now),
  seconds: (now) => Math.round(utcMonthLengthMs(now) / 1000),
  calendarEnd: nextUtcMonthStart,
};

/** One named limit: everything the throttlers, stores, guard, `/v1/usage` and OpenAPI need of it. */
export interface LimitRow {
  /** The named throttler; also the counter key's prefix, the RateLimit item and the `/v1/usage` field. */
  readonly name: string;
  readonly window: LimitWindow;
  /** The key's limit per window, and the `/v1/usage` field (with its description) that reports it. */
  readonly limit: {
    readonly of: (key: KeyPolicy) => number;
    readonly field: string;
    readonly description: string;
  };
  /** The refusal's error code (429 in the error catalogue). */
  readonly refusal: ErrorCode;
  /** Retry-After of a refusal, whole seconds. */
  retryAfterSeconds(now: number): number;
  /**
   * Where the replicas share the counters: a PostgreSQL table (created by a migration, one row per
   * key), and whether Redis holds them instead when REDIS_URL is set (PostgreSQL stays behind it).
   * `lastUse`: the table has a `last_used_on` date that the statements writing a key's row anyway
   * (a reservation, a return) set to the UTC day: the key's last use, for `keys:list`.
   */
  readonly counters: { readonly table: string; readonly redis: boolean; readonly lastUse?: boolean };
  /**
   * A quota is what a key consumes: `GET /v1/usage` and requests refused without being served are not
   * charged to it. A rate (the minute) counts every request, so a client retrying at once meets it.
   */
  readonly quota: boolean;
}

export type LimitTable = readonly LimitRow[];

/**
 * The limits in the contract's order of checks: the guard stops at the first refusal. A new limit is
 * one row here plus the migration creating its counter table (docs/limits.md, The limit table).
 */
export const LIMITS: LimitTable = [
  {
    name: 'minute',
    window: rollingWindow(60_000),
    limit: { of: (key) => key.rpm, field: 'rpm', description: 'Requests per minute' },
    refusal: 'RATE_LIMITED',
    retryAfterSeconds: () => 60,
    counters: { table: 'rate_counters', redis: true },
    quota: false,
  },
  {
    name: 'month',
    window: UTC_MONTH_WINDOW,
    limit: {
      of: (key) => key.monthlyQuota,
      field: 'monthly_quota',
      description: 'Requests per calendar month (UTC)',
    },
    refusal: 'MONTHLY_QUOTA_EXCEEDED',
    retryAfterSeconds: secondsUntilNextUtcMonth,
    counters: { table: 'quota_counters', redis: false, lastUse: true },
    quota: true,
  },
];

/** The counter a limit keeps for a key: one per key and limit, shared by every route. */
export function counterKey(limitName: string, keyId: string): string {
  return `${limitName}:${keyId}`;
}

/**
 * `counterKey` of a key's policy, built once per policy and limit: the same string object on every
 * request, so the maps keyed by it find it without hashing a new string each time.
 */
export function counterKeyOf(limitName: string, key: KeyPolicy): string {
  let byLimit = counterKeysByPolicy.get(key);
  if (!byLimit) counterKeysByPolicy.set(key, (byLimit = new Map()));
  let counter = byLimit.get(limitName);
  if (counter === undefined) byLimit.set(limitName, (counter = counterKey(limitName, key.id)));
  return counter;
}

const counterKeysByPolicy = new WeakMap<KeyPolicy, Map<string, string>>();
