/**
 * The limits policy, in one place: the two windows a key is metered in, what a refusal tells the
 * client, the contract's headers, and how big a block of allowance a replica reserves at a time.
 * Storages only count; guards only apply what is decided here.
 */

/** The named throttlers, in the contract's order of checks: a minute refusal never reaches the month. */
export const LIMIT_NAMES = ['minute', 'month'] as const;
export type LimitName = (typeof LIMIT_NAMES)[number];

/** What the limits read from the key that authenticated the request. */
export interface KeyPolicy {
  id: string;
  /** Requests per minute. */
  rpm: number;
  /** Requests per UTC calendar month. */
  monthlyQuota: number;
}

/**
 * A window starts with the key's first request in it and lasts the throttler's ttl: 60 s for the
 * minute (the contract allows a window that starts at the first request, never longer than 60 s),
 * and until the next UTC month for the month, so the quota resets on the first of the month.
 */
export const MINUTE_TTL_MS = 60_000;

export function monthTtlMs(now: number): number {
  return Math.max(1, msUntilNextUtcMonth(now));
}

export function limitOf(name: LimitName, key: KeyPolicy): number {
  return name === 'minute' ? key.rpm : key.monthlyQuota;
}

/** The counter a limit keeps for a key: one per key and limit, shared by every route. */
export function counterKey(name: string, keyId: string): string {
  return `${name}:${keyId}`;
}

/** RATE_LIMITED says 60; MONTHLY_QUOTA_EXCEEDED the whole seconds to 00:00:00 UTC on the 1st (≥ 1). */
export function retryAfterSeconds(name: LimitName, now: number): number {
  return name === 'minute' ? 60 : secondsUntilNextUtcMonth(new Date(now));
}

export function refusalCode(name: LimitName): 'RATE_LIMITED' | 'MONTHLY_QUOTA_EXCEEDED' {
  return name === 'minute' ? 'RATE_LIMITED' : 'MONTHLY_QUOTA_EXCEEDED';
}

export const RATE_LIMIT_HEADERS = {
  limit: 'X-RateLimit-Limit',
  remaining: 'X-RateLimit-Remaining',
  retryAfter: 'Retry-After',
} as const;

/**
 * The contract's headers once a key is authenticated: its per-minute policy, and the policy minus 1
 * (best effort, as the contract fixes it); a refusal overwrites Remaining with 0.
 */
export function admittedHeaders(key: KeyPolicy): Record<string, string> {
  return {
    [RATE_LIMIT_HEADERS.limit]: String(key.rpm),
    [RATE_LIMIT_HEADERS.remaining]: String(key.rpm - 1),
  };
}

export function refusedHeaders(name: LimitName, now: number): Record<string, string> {
  return {
    [RATE_LIMIT_HEADERS.remaining]: '0',
    [RATE_LIMIT_HEADERS.retryAfter]: String(retryAfterSeconds(name, now)),
  };
}

/** A counter's open window: requests counted in it, and how long it still lasts. */
export interface WindowStanding {
  used: number;
  msLeft: number;
}

/** A key's standing in one limit, as `GET /v1/usage` and the RateLimit fields report it. */
export interface LimitUsage {
  limit: number;
  used: number;
  remaining: number;
  /** When the window ends: the next UTC month for the month; for the minute, null with no window open. */
  resetsAt: number | null;
}

export function limitUsage(
  name: LimitName,
  key: KeyPolicy,
  standing: WindowStanding | null,
  now: number,
): LimitUsage {
  const limit = limitOf(name, key);
  const used = Math.min(limit, standing?.used ?? 0);
  const resetsAt =
    name === 'month' ? now + msUntilNextUtcMonth(now) : standing ? now + standing.msLeft : null;
  return { limit, used, remaining: limit - used, resetsAt };
}

/**
 * The IETF fields (draft-ietf-httpapi-ratelimit-headers, structured-field syntax), one item per
 * limit: `RateLimit-Policy: "minute";q=120;w=60, "month";q=50000;w=2592000` and
 * `RateLimit: "minute";r=119;t=42, "month";r=49000;t=697000`. `w` of the month is the current month's
 * length; `t` is the seconds until the window resets (a window not open yet: its full length).
 */
export function rateLimitFields(
  key: KeyPolicy,
  usage: Readonly<Record<LimitName, LimitUsage>>,
  now: number,
): Record<string, string> {
  const windowSeconds = { minute: MINUTE_TTL_MS / 1000, month: Math.round(monthLengthMs(now) / 1000) };
  const policy = LIMIT_NAMES.map((name) => `"${name}";q=${limitOf(name, key)};w=${windowSeconds[name]}`);
  const current = LIMIT_NAMES.map((name) => {
    const { remaining, resetsAt } = usage[name];
    const reset = resetsAt === null ? windowSeconds[name] : Math.max(0, Math.ceil((resetsAt - now) / 1000));
    return `"${name}";r=${remaining};t=${reset}`;
  });
  return { [RATE_LIMIT_FIELDS.policy]: policy.join(', '), [RATE_LIMIT_FIELDS.current]: current.join(', ') };
}

export const RATE_LIMIT_FIELDS = { policy: 'RateLimit-Policy', current: 'RateLimit' } as const;

/** What `rateLimitFields` writes, as patterns (for the API description). */
export const RATE_LIMIT_FIELD_PATTERNS: Readonly<Record<keyof typeof RATE_LIMIT_FIELDS, string>> = {
  policy: `^${LIMIT_NAMES.map((name) => `"${name}";q=[0-9]+;w=[0-9]+`).join(', ')}$`,
  current: `^${LIMIT_NAMES.map((name) => `"${name}";r=[0-9]+;t=[0-9]+`).join(', ')}$`,
};

function monthLengthMs(now: number): number {
  const { start, next } = utcMonthOf(now);
  return next - start;
}

/** Whole seconds from `now` until 00:00:00 UTC on the first day of the next month, at least 1. */
export function secondsUntilNextUtcMonth(now: Date): number {
  return Math.max(1, Math.ceil(msUntilNextUtcMonth(now.getTime()) / 1000));
}

function msUntilNextUtcMonth(now: number): number {
  return nextUtcMonthStart(now) - now;
}

/** 00:00:00 UTC on the first day of the month after the one holding `now` (epoch ms). */
function nextUtcMonthStart(now: number): number {
  return utcMonthOf(now).next;
}

/** The month every request asks about, until a request arrives outside it (or a test's clock moves). */
let lastMonth = { start: 0, next: 0 };

/** The first instant of the UTC month holding `now`, and of the month after (epoch ms). */
function utcMonthOf(now: number): { start: number; next: number } {
  if (now < lastMonth.start || now >= lastMonth.next) {
    const date = new Date(now);
    const [year, month] = [date.getUTCFullYear(), date.getUTCMonth()];
    lastMonth = { start: Date.UTC(year, month, 1), next: Date.UTC(year, month + 1, 1) };
  }
  return lastMonth;
}

/**
 * Reservations: each replica reserves a block of a window's allowance in one atomic statement and
 * spends it in memory. Blocks follow demand (doubling while a block lasts less than `fastRefillMs`,
 * halving when one lasts more than `slowRefillMs`), never exceed `maxBlock` (a crash costs a key at
 * most one unused block), and never more than `shareOfRemaining` of what is left in the window, so
 * they shrink to single requests near the limit and every replica with demand still gets its turn.
 */
export const RESERVATION = {
  maxBlock: 1_000,
  shareOfRemaining: 0.25,
  fastRefillMs: 250,
  slowRefillMs: 1_000,
  /** A window found exhausted is asked again after this long (another replica may return allowance). */
  exhaustedRecheckMs: 1_000,
  /** Allowance a replica has not touched for this long goes back to the window. */
  idleReleaseMs: 1_000,
  /** A hot key's next block is reserved when this share of its current one is left. */
  reserveAheadShare: 0.25,
  /** Blocks smaller than this (slow keys, or near the limit) are not reserved ahead. */
  reserveAheadMinBlock: 4,
} as const;

export interface ReservationDemand {
  limit: number;
  /** The window's reserved total as this replica last saw it (0 when unknown). */
  reserved: number;
  /** Requests of this replica waiting for allowance right now. */
  waiting: number;
  /** The size of this replica's previous reservation in the window (0 for none). */
  lastBlock: number;
  msSinceLastRefill: number;
}

export function reservationSize(demand: ReservationDemand): number {
  const { limit, reserved, waiting, lastBlock, msSinceLastRefill } = demand;
  let wanted = 1;
  if (lastBlock > 0) {
    if (msSinceLastRefill < RESERVATION.fastRefillMs) wanted = lastBlock * 2;
    else if (msSinceLastRefill > RESERVATION.slowRefillMs) wanted = Math.ceil(lastBlock / 2);
    else wanted = lastBlock;
  }
  wanted = Math.max(wanted, waiting);
  const share = Math.ceil(Math.max(0, limit - reserved) * RESERVATION.shareOfRemaining);
  return Math.max(1, Math.min(wanted, share, RESERVATION.maxBlock));
}

/** Whether to reserve the next block now, while requests are still served from the current one. */
export function shouldReserveAhead(available: number, lastBlock: number): boolean {
  return (
    lastBlock >= RESERVATION.reserveAheadMinBlock && available <= lastBlock * RESERVATION.reserveAheadShare
  );
}
