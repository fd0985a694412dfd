import type { KeyPolicy } from './key-policy';
import type { LimitRow } from './limit-table';

/** A counter's open window: requests counted in it, and how long it still lasts. */
export interface CountedWindow {
  used: number;
  msLeft: number;
}

/** A key's usage of one limit, as `GET /v1/usage` (schema WindowUsage) and the RateLimit fields report it. */
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
  counted: CountedWindow | null,
  now: number,
): LimitUsage {
  const limit = row.limit.of(key);
  const used = Math.min(limit, counted?.used ?? 0);
  const resetsAt = row.window.calendarEnd(now) ?? (counted ? now + counted.msLeft : null);
  return { limit, used, remaining: limit - used, resetsAt };
}
