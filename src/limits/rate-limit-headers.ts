import type { KeyPolicy } from './key-policy';
import type { LimitRow, LimitTable } from './limit-table';
import type { LimitUsage } from './limit-usage';

/** The rate-limit headers the limits guard writes and the API description declares, in one place. */

/** The contract's rate-limit headers. */
export const RATE_LIMIT_HEADERS = {
  limit: 'X-RateLimit-Limit',
  remaining: 'X-RateLimit-Remaining',
  retryAfter: 'Retry-After',
} as const;

/** The IETF fields (draft-ietf-httpapi-ratelimit-headers), one item per limit. */
export const RATE_LIMIT_FIELDS = { policy: 'RateLimit-Policy', current: 'RateLimit' } as const;

/**
 * The contract's headers for an authenticated key: its minute policy and the policy minus 1 (best
 * effort, as the contract fixes it). Built once per policy object, shared and frozen.
 */
export function admittedHeaders(key: KeyPolicy): Readonly<Record<string, string>> {
  let headers = admittedByPolicy.get(key);
  if (!headers) {
    headers = Object.freeze({
      [RATE_LIMIT_HEADERS.limit]: String(key.rpm),
      [RATE_LIMIT_HEADERS.remaining]: String(key.rpm - 1),
    });
    admittedByPolicy.set(key, headers);
  }
  return headers;
}

const admittedByPolicy = new WeakMap<KeyPolicy, Readonly<Record<string, string>>>();

/** A refusal by `limit`: Remaining 0 and the limit's Retry-After. */
export function refusedHeaders(limit: LimitRow, now: number): Record<string, string> {
  return {
    [RATE_LIMIT_HEADERS.remaining]: '0',
    [RATE_LIMIT_HEADERS.retryAfter]: String(limit.retryAfterSeconds(now)),
  };
}

/**
 * IETF structured fields, one item per limit in table order (`"minute";q=120;w=60, ...`): the month's `w`
 * is this month's length, `t` the seconds to reset (unopened: full length); `usages` matches `limits`.
 */
export function rateLimitFields(
  limits: LimitTable,
  key: KeyPolicy,
  usages: readonly Pick<LimitUsage, 'remaining' | 'resetsAt'>[],
  now: number,
): Record<string, string> {
  return {
    [RATE_LIMIT_FIELDS.policy]: rateLimitPolicyField(limits, key, now),
    [RATE_LIMIT_FIELDS.current]: rateLimitCurrentField(limits, usages, now),
  };
}

/** `RateLimit-Policy`: what the key's limits and the windows' lengths at `now` make of it. */
export function rateLimitPolicyField(limits: LimitTable, key: KeyPolicy, now: number): string {
  let field = '';
  for (const limit of limits) {
    if (field !== '') field += ', ';
    field += `"${limit.name}";q=${limit.limit.of(key)};w=${limit.window.seconds(now)}`;
  }
  return field;
}

/** `RateLimit`: each limit's remaining requests and the seconds until its window resets. */
export function rateLimitCurrentField(
  limits: LimitTable,
  usages: readonly Pick<LimitUsage, 'remaining' | 'resetsAt'>[],
  now: number,
): string {
  let field = '';
  for (let i = 0; i < limits.length; i++) {
    const { remaining, resetsAt } = usages[i];
    const reset =
      resetsAt === null ? limits[i].window.seconds(now) : Math.max(0, Math.ceil((resetsAt - now) / 1000));
    if (field !== '') field += ', ';
    field += `"${limits[i].name}";r=${remaining};t=${reset}`;
  }
  return field;
}

/**
 * A key's `RateLimit-Policy`, built once per policy and kept until a calendar window ends (the
 * windows' lengths change only then): it depends on nothing of the request.
 */
export class RateLimitPolicyFields {
  private readonly byKey = new WeakMap<KeyPolicy, { field: string; from: number; until: number }>();

  constructor(private readonly limits: LimitTable) {}

  of(key: KeyPolicy, now: number): string {
    const held = this.byKey.get(key);
    if (held && now >= held.from && now < held.until) return held.field;
    const field = rateLimitPolicyField(this.limits, key, now);
    let until = Number.POSITIVE_INFINITY;
    for (const limit of this.limits) until = Math.min(until, limit.window.calendarEnd(now) ?? until);
    this.byKey.set(key, { field, from: now, until });
    return field;
  }
}

/** What `rateLimitFields` writes, as patterns (for the API description). */
export function rateLimitFieldPatterns(
  limits: LimitTable,
): Readonly<Record<keyof typeof RATE_LIMIT_FIELDS, string>> {
  return {
    policy: `^${limits.map((limit) => `"${limit.name}";q=[0-9]+;w=[0-9]+`).join(', ')}$`,
    current: `^${limits.map((limit) => `"${limit.name}";r=[0-9]+;t=[0-9]+`).join(', ')}$`,
  };
}
