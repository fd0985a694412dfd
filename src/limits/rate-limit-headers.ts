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
 * The contract's headers once a key is authenticated: its per-minute policy, and the policy minus 1
 * (best effort, as the contract fixes it); a refusal overwrites Remaining with 0.
 */
export function admittedHeaders(key: KeyPolicy): Record<string, string> {
  return {
    [RATE_LIMIT_HEADERS.limit]: String(key.rpm),
    [RATE_LIMIT_HEADERS.remaining]: String(key.rpm - 1),
  };
}

/** A refusal by `limit`: Remaining 0 and the limit's Retry-After. */
export function refusedHeaders(limit: LimitRow, now: number): Record<string, string> {
  return {
    [RATE_LIMIT_HEADERS.remaining]: '0',
    [RATE_LIMIT_HEADERS.retryAfter]: String(limit.retryAfterSeconds(now)),
  };
}

/**
 * The IETF fields (structured-field syntax), one item per limit in the table's order:
 * `RateLimit-Policy: "minute";q=120;w=60, "month";q=50000;w=2592000` and
 * `RateLimit: "minute";r=119;t=42, "month";r=49000;t=697000`. `w` of the month is the current month's
 * length; `t` is the seconds until the window resets (a window not open yet: its full length).
 * `usages` follows `limits`, item for item.
 */
export function rateLimitFields(
  limits: LimitTable,
  key: KeyPolicy,
  usages: readonly Pick<LimitUsage, 'remaining' | 'resetsAt'>[],
  now: number,
): Record<string, string> {
  const policy: string[] = [];
  const current: string[] = [];
  limits.forEach((limit, i) => {
    const seconds = limit.window.seconds(now);
    const { remaining, resetsAt } = usages[i];
    const reset = resetsAt === null ? seconds : Math.max(0, Math.ceil((resetsAt - now) / 1000));
    policy.push(`"${limit.name}";q=${limit.limit.of(key)};w=${seconds}`);
    current.push(`"${limit.name}";r=${remaining};t=${reset}`);
  });
  return { [RATE_LIMIT_FIELDS.policy]: policy.join(', '), [RATE_LIMIT_FIELDS.current]: current.join(', ') };
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
