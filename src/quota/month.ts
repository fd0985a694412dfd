/** Whole seconds from `now` until 00:00:00 UTC on the first day of the next month, at least 1. */
export function secondsUntilNextUtcMonth(now: Date): number {
  const nextMonth = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
  return Math.max(1, Math.ceil((nextMonth - now.getTime()) / 1000));
}

/** Whole seconds left in the calendar minute that holds `now` (1 to 60). */
export function secondsLeftInMinute(now: Date): number {
  return 60 - now.getUTCSeconds();
}
