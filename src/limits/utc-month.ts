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

/** 00:00:00 UTC on the first day of the month after the one holding `now` (epoch ms). */
export function nextUtcMonthStart(now: number): number {
  return utcMonthOf(now).next;
}

/** The length of the UTC month holding `now` (ms). */
export function utcMonthLengthMs(now: number): number {
  const { start, next } = utcMonthOf(now);
  return next - start;
}

/** Whole seconds from `now` until 00:00:00 UTC on the first day of the next month, at least 1. */
export function secondsUntilNextUtcMonth(now: number): number {
  return Math.max(1, Math.ceil((nextUtcMonthStart(now) - now) / 1000));
}
