import type { KeyPolicy } from '../common/access/key-policy';
import type { LimitRow } from '../common/access/limit-table';

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
  /** When the window ends: a calendar window's end (the month); otherwise null with no window open. */
  resetsAt: number | null;
}

export function limitUsage(
  row: LimitRow,
  key: KeyPolicy,
  standing: WindowStanding | null,
  now: number,
): LimitUsage {
  const limit = row.limit.of(key);
  const used = Math.min(limit, standing?.used ?? 0);
  const resetsAt = row.window.calendarEnd(now) ?? (standing ? now + standing.msLeft : null);
  return { limit, used, remaining: limit - used, resetsAt };
}
