/** Resolves after `ms` milliseconds. */
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits until the current calendar minute has at least `seconds` left, so a short burst against a
 * per-minute limit does not straddle two windows. The database and this process share the clock.
 */
export async function awaitRoomInMinute(seconds = 10): Promise<void> {
  const left = 60 - new Date().getUTCSeconds();
  if (left < seconds) await sleep(left * 1000 + 200);
}

/** Polls `check` until it returns true or `withinMs` passes; returns the elapsed time. */
export async function eventually(
  check: () => Promise<boolean>,
  withinMs: number,
  everyMs = 200,
): Promise<number> {
  const started = Date.now();
  while (Date.now() - started <= withinMs) {
    if (await check()) return Date.now() - started;
    await sleep(everyMs);
  }
  throw new Error(`condition not met within ${withinMs} ms`);
}
