/**
 * Where a reading phase is, for its status line: rows and rate, and, once a little of the file is
 * read, the percentage of the file (its size is known) and the time left at the rate so far.
 */
export function readingDetail(rows: number, seconds: number, fraction: number | undefined): string {
  const rate = seconds > 0 ? Math.round(rows / seconds) : 0;
  const base = `: ${rows.toLocaleString('en-US')} rows (${rate.toLocaleString('en-US')}/s)`;
  if (fraction === undefined) return base;
  const percent = `${Math.floor(fraction * 100)}%`;
  if (fraction <= 0.01 || fraction >= 1) return `${base}, ${percent}`;
  const left = Math.round((seconds * (1 - fraction)) / fraction);
  return `${base}, ${percent}, ~${left >= 60 ? `${Math.round(left / 60)} min` : `${left} s`} left`;
}
