import {
  MAX_OVERLOAD_RETRY_AFTER_SECONDS,
  OVERLOAD_RETRY_AFTER_SECONDS,
} from '../../common/access/access-headers';
import {
  ALWAYS_SERVED_SEARCHES,
  ASSUMED_SEARCH_DURATION_MS,
  MAX_SEARCH_WAIT_MS,
  MIN_SEARCHES_PER_WINDOW,
  SEARCH_COST_IN_REQUESTS,
  SEARCH_SHARE,
  type SearchDone,
  SearchShare,
  type SearchShareOptions,
} from './search-share';

const SATURATED = 0.95;
const IDLE = 0.3;
const WINDOW_MS = 100;
/** More than any test asks for: the share alone decides. */
const UNBOUNDED = 100_000;

/** Starts `count` searches; per search, whether it has started, its refusal, and how to finish it. */
function ask(share: SearchShare, count: number) {
  const started: boolean[] = [];
  const done: Array<SearchDone | undefined> = [];
  const refusals: unknown[] = [];
  for (let i = 0; i < count; i++) {
    let admitted: Promise<SearchDone> | SearchDone;
    try {
      admitted = share.admit();
    } catch (error) {
      refusals.push(error);
      started.push(false);
      continue;
    }
    if (typeof admitted === 'function') {
      started.push(true);
      done.push(admitted);
    } else {
      started.push(false);
      admitted.then(
        (finish) => {
          started[i] = true;
          done[i] = finish;
        },
        (error: unknown) => refusals.push(error),
      );
    }
  }
  return { started, done, refusals, count: () => started.filter(Boolean).length };
}

const settle = () =>
  new Promise((resolve) => jest.requireActual<typeof import('timers')>('timers').setImmediate(resolve));

/** A refusal: 500 with Retry-After, not charged to the month, not logged one by one. */
const REFUSAL = expect.objectContaining({
  code: 'INTERNAL_ERROR',
  uncharged: true,
  expected: true,
  headers: { 'Retry-After': String(OVERLOAD_RETRY_AFTER_SECONDS) },
});

describe('SearchShare', () => {
  let now: number;
  const shareOf = (options: Partial<SearchShareOptions> = {}) =>
    new SearchShare({ concurrency: UNBOUNDED, windowMs: WINDOW_MS, clock: () => now, ...options });

  beforeEach(() => {
    jest.useFakeTimers();
    now = 1_000_000;
  });
  afterEach(() => jest.useRealTimers());

  it('lets every search start at once while the process is not saturated', () => {
    const share = shareOf();
    share.endWindow({ utilization: IDLE, requests: 5_000 });
    expect(ask(share, 500).count()).toBe(500);
  });

  it('lets searches alone use a saturated process', () => {
    const share = shareOf();
    ask(share, 300);
    share.endWindow({ utilization: SATURATED, requests: 300 });
    expect(ask(share, 300).count()).toBe(300);
  });

  it('gives searches their share of a saturated process, and refuses at once those whose window is too far', async () => {
    const share = shareOf();
    ask(share, 100);
    // 100 searches and 10,000 other requests arrived in a saturated window.
    share.endWindow({ utilization: SATURATED, requests: 10_100 });
    const budget = Math.floor((10_000 * SEARCH_SHARE) / ((1 - SEARCH_SHARE) * SEARCH_COST_IN_REQUESTS));
    const next = ask(share, 300);
    expect(next.count()).toBe(budget);
    // The next window (100 ms away) has room for `budget` more; the one after is beyond the bound.
    expect(share.waitingCount).toBe(budget);
    expect(next.refusals).toHaveLength(300 - 2 * budget);
    expect(next.refusals).toEqual(Array(300 - 2 * budget).fill(REFUSAL));
    // The next window starts the waiting searches, first come first served, within its budget.
    now += WINDOW_MS;
    share.endWindow({ utilization: SATURATED, requests: 12_000 });
    await settle();
    expect(next.started.slice(0, 2 * budget)).toEqual(Array(2 * budget).fill(true));
    expect(share.waitingCount).toBe(0);
  });

  it('weighs a search as SEARCH_COST_IN_REQUESTS requests: the searches it lets start cost at most SEARCH_SHARE of the work', () => {
    for (const others of [2_000, 10_000, 50_000]) {
      const share = shareOf();
      share.endWindow({ utilization: SATURATED, requests: others });
      const budget = ask(share, 2_000).count();
      const searchWork = budget * SEARCH_COST_IN_REQUESTS;
      expect(searchWork / (searchWork + others)).toBeLessThanOrEqual(SEARCH_SHARE);
      // One search more would exceed the share: the budget is the whole share, rounded down.
      const oneMore = (budget + 1) * SEARCH_COST_IN_REQUESTS;
      expect(oneMore / (oneMore + others)).toBeGreaterThan(SEARCH_SHARE);
      // Counted in requests, as before the weight, the same load would have let start ten times more.
      expect(budget).toBeLessThan(
        ((others * SEARCH_SHARE) / (1 - SEARCH_SHARE)) * (2 / SEARCH_COST_IN_REQUESTS),
      );
    }
  });

  describe('Retry-After of a refusal', () => {
    const retryAfter = (refusal: unknown) =>
      Number((refusal as { headers: Record<string, string> }).headers['Retry-After']);
    /**
     * `windows` saturated windows, each with `asked` searches arriving and MIN_SEARCHES_PER_WINDOW let
     * start; a search started in a window (or from the queue when the next began) has finished by
     * the next.
     */
    const flood = async (share: SearchShare, windows: number, asked: number) => {
      let last: ReturnType<typeof ask> | undefined;
      for (let i = 0; i < windows; i++) {
        now += WINDOW_MS;
        share.endWindow({ utilization: SATURATED, requests: asked + 10 });
        await settle();
        last?.done.forEach((finish) => finish?.());
        last = ask(share, asked);
      }
      return last!;
    };

    it('is 1 while the searchers number fewer than the searches a second starts, more once they outnumber them', async () => {
      const share = shareOf();
      const first = await flood(share, 1, 30);
      expect(first.refusals.map(retryAfter)[0]).toBe(OVERLOAD_RETRY_AFTER_SECONDS);

      // Two seconds of 10 searches a window (100 a second), each running until the next window.
      let running: SearchDone[] = [];
      for (let i = 0; i < 20; i++) {
        now += WINDOW_MS;
        share.endWindow({ utilization: IDLE, requests: 20 });
        running.forEach((finish) => finish());
        running = ask(share, 10).done.map((finish) => finish!);
      }
      // A first saturated window of 30: 10 searchers known against about 90 started a second.
      now += WINDOW_MS;
      share.endWindow({ utilization: SATURATED, requests: 40 });
      running.forEach((finish) => finish());
      const saturated = ask(share, 30);
      expect(saturated.refusals.length).toBeGreaterThan(0);
      expect(saturated.refusals.map(retryAfter)).toEqual(
        Array(saturated.refusals.length).fill(OVERLOAD_RETRY_AFTER_SECONDS),
      );
      // Refused clients pile up while 5 start a window: within a second they outnumber the starts.
      const later = await flood(share, 10, 30);
      expect(later.refusals.map(retryAfter)[0]).toBeGreaterThan(OVERLOAD_RETRY_AFTER_SECONDS);
    });

    it.each([
      ['on time', WINDOW_MS],
      ['late, as a timer on a saturated process runs', 2 * WINDOW_MS],
    ])(
      'brings clients that wait as told back about as fast as searches start: the searchers over the starts a second (windows %s)',
      async (_, windowMs) => {
        // 200 clients, each searching one request at a time and waiting out Retry-After when refused,
        // beside enough other requests that a saturated window lets MIN_SEARCHES_PER_WINDOW start
        // (50 a second when windows end on time). A search lasts one window.
        const share = shareOf();
        const clients = 200;
        const nextAskAt = Array<number>(clients).fill(now);
        let finishing: SearchDone[] = [];
        const tally = { started: 0, refused: 0, retryAfters: [] as number[] };
        let arrived = 0;
        const windows = 400;
        const measuredFrom = 200; // the second half
        for (let window = 0; window < windows; window++) {
          const measured = window >= measuredFrom;
          const refusedNow = (client: number, refusal: unknown) => {
            nextAskAt[client] = now + retryAfter(refusal) * 1000;
            if (measured) {
              tally.refused++;
              tally.retryAfters.push(retryAfter(refusal));
            }
          };
          const startedNow = (client: number, done: SearchDone) => {
            if (measured) tally.started++;
            finishing.push(() => {
              done();
              nextAskAt[client] = now;
            });
          };
          const finished = finishing;
          finishing = [];
          finished.forEach((finish) => finish());
          share.endWindow({ utilization: SATURATED, requests: arrived + 300 });
          arrived = 0;
          for (let client = 0; client < clients; client++) {
            if (nextAskAt[client] > now) continue;
            arrived++;
            nextAskAt[client] = Number.POSITIVE_INFINITY;
            try {
              const admitted = share.admit();
              if (typeof admitted === 'function') startedNow(client, admitted);
              else
                admitted.then(
                  (done) => startedNow(client, done),
                  (refusal: unknown) => refusedNow(client, refusal),
                );
            } catch (refusal) {
              refusedNow(client, refusal);
            }
          }
          now += windowMs;
          await jest.advanceTimersByTimeAsync(windowMs);
        }
        const seconds = ((windows - measuredFrom) * windowMs) / 1000;
        const startedPerSecond = tally.started / seconds;
        expect(startedPerSecond).toBeCloseTo(MIN_SEARCHES_PER_WINDOW * (1000 / windowMs), 0);
        // Retry-After settles at the searchers over the starts a second (200 / 50), so the clients are
        // refused about once per search started, not twice or more.
        const sorted = [...tally.retryAfters].sort((a, b) => a - b);
        expect(sorted[0]).toBeGreaterThanOrEqual(Math.floor(clients / startedPerSecond));
        expect(sorted.at(-1)).toBeLessThanOrEqual(Math.ceil(clients / startedPerSecond) + 1);
        expect(tally.refused / seconds).toBeLessThan(1.25 * startedPerSecond);
      },
    );

    it('is the maximum while nothing starts, and 1 again once no refused client is still waiting', async () => {
      const share = shareOf({ concurrency: 1 });
      const stuck = ask(share, 1);
      expect(stuck.count()).toBe(1);
      const refusedWhileStuck = (await flood(share, 20, 30)).refusals.map(retryAfter);
      expect(refusedWhileStuck.at(-1)).toBe(MAX_OVERLOAD_RETRY_AFTER_SECONDS);

      const calm = shareOf();
      await flood(calm, 30, 30);
      // Longer than the longest Retry-After handed out: the refused clients are back (or gone).
      for (let i = 0; i < 150; i++) {
        now += WINDOW_MS;
        calm.endWindow({ utilization: IDLE, requests: 10 });
        ask(calm, 5).done.forEach((finish) => finish!());
      }
      now += WINDOW_MS;
      calm.endWindow({ utilization: SATURATED, requests: 200 });
      const later = ask(calm, 300).refusals.map(retryAfter);
      expect(later[0]).toBe(OVERLOAD_RETRY_AFTER_SECONDS);
    });
  });

  it('always lets a few searches start, however much other traffic there is', () => {
    const share = shareOf();
    share.endWindow({ utilization: SATURATED, requests: 3 });
    expect(ask(share, 50).count()).toBe(MIN_SEARCHES_PER_WINDOW);
  });

  it('runs at most `concurrency` searches at once; a finished one starts the next in arrival order', async () => {
    const share = shareOf({ concurrency: 2 });
    const searches = ask(share, 4);
    expect(searches.started).toEqual([true, true, false, false]);
    expect(share.runningCount).toBe(2);
    searches.done[1]!();
    searches.done[1]!(); // a second call changes nothing
    await settle();
    expect(searches.started).toEqual([true, true, true, false]);
    searches.done[0]!();
    await settle();
    expect(searches.started).toEqual([true, true, true, true]);
    expect(share.runningCount).toBe(2);
  });

  it('refuses at once a search whose place in the queue cannot start within the bound', () => {
    // As many running as are always served: every waiting place is judged by its estimate.
    const share = shareOf({ concurrency: ALWAYS_SERVED_SEARCHES });
    // Searches have taken 80 ms: with 8 running, a slot frees every 10 ms on average.
    const first = ask(share, ALWAYS_SERVED_SEARCHES);
    now += 80;
    first.done.forEach((finish) => finish!());
    const searches = ask(share, 30);
    const fitting = Math.floor(MAX_SEARCH_WAIT_MS / 10); // places 1..15 start within 150 ms
    expect(searches.count()).toBe(ALWAYS_SERVED_SEARCHES);
    expect(share.waitingCount).toBe(fitting);
    expect(searches.refusals).toEqual(Array(30 - ALWAYS_SERVED_SEARCHES - fitting).fill(REFUSAL));
  });

  it('before any search has finished, estimates waits with the assumed duration', () => {
    const share = shareOf({ concurrency: ALWAYS_SERVED_SEARCHES });
    const searches = ask(share, 30);
    // 8 run; the n-th waiting place would wait n × the assumed duration / 8.
    const fitting = Math.floor(MAX_SEARCH_WAIT_MS / (ASSUMED_SEARCH_DURATION_MS / ALWAYS_SERVED_SEARCHES));
    expect(searches.count()).toBe(ALWAYS_SERVED_SEARCHES);
    expect(share.waitingCount).toBe(fitting);
    expect(searches.refusals).toEqual(Array(30 - ALWAYS_SERVED_SEARCHES - fitting).fill(REFUSAL));
  });

  it('refuses a waiting search beyond the few always served when the bound ends; the few wait however long', async () => {
    const share = shareOf({ concurrency: 1 });
    ask(share, 1).done[0]!(); // searches take no time: every place is within the bound on arrival
    const searches = ask(share, ALWAYS_SERVED_SEARCHES + 2);
    // 1 runs; the next 7 find fewer than 8 in flight; the last 2 find 8 and 9.
    expect(share.waitingCount).toBe(ALWAYS_SERVED_SEARCHES + 1);
    jest.advanceTimersByTime(MAX_SEARCH_WAIT_MS - 1);
    await settle();
    expect(searches.refusals).toEqual([]);
    jest.advanceTimersByTime(1);
    await settle();
    expect(searches.refusals).toEqual([REFUSAL, REFUSAL]);
    expect(share.waitingCount).toBe(ALWAYS_SERVED_SEARCHES - 1);
    jest.advanceTimersByTime(10 * MAX_SEARCH_WAIT_MS);
    await settle();
    expect(searches.refusals).toHaveLength(2);
    searches.done[0]!();
    await settle();
    expect(searches.started.slice(0, 3)).toEqual([true, true, false]);
    // A refused search never runs, and does not hold a slot.
    searches.done[1]!();
    await settle();
    expect(share.runningCount).toBe(1);
    expect(searches.started.filter(Boolean)).toHaveLength(3);
  });

  it.each([
    ['idle', IDLE],
    ['saturated (a share in force)', SATURATED],
  ])(
    'never refuses a search that finds fewer than ALWAYS_SERVED_SEARCHES in flight however slow searches are, the process %s',
    async (_, utilization) => {
      const share = shareOf({ concurrency: 2 });
      // Searches have taken 2 s: any wait estimate is far beyond the bound.
      const slow = ask(share, 2);
      now += 2_000;
      slow.done.forEach((finish) => finish!());
      share.endWindow({ utilization, requests: 1_000 });
      const searches = ask(share, ALWAYS_SERVED_SEARCHES + 1);
      expect(searches.count()).toBe(2);
      expect(share.waitingCount).toBe(ALWAYS_SERVED_SEARCHES - 2);
      // Only the one that found 8 in flight is refused.
      expect(searches.refusals).toEqual([REFUSAL]);
      jest.advanceTimersByTime(10 * MAX_SEARCH_WAIT_MS);
      searches.done[0]!();
      searches.done[1]!();
      await settle();
      expect(searches.started.filter(Boolean)).toHaveLength(4);
      expect(searches.refusals).toHaveLength(1);
    },
  );

  it('serves six clients searching one request at a time beside a flood of other requests: none refused', async () => {
    // Each search takes 10 ms; the clients ask far more than the 5 a saturated window lets start, so
    // up to all six wait, some for two windows (beyond the 150 ms bound), and none is refused.
    const share = shareOf({ concurrency: 4 });
    const refusals: unknown[] = [];
    let served = 0;
    const client = async () => {
      for (let search = 0; search < 20; search++) {
        try {
          const done = await share.admit();
          served++;
          await new Promise((resolve) => setTimeout(resolve, 10));
          done();
        } catch (error) {
          refusals.push(error);
        }
      }
    };
    let finished = false;
    const clients = Promise.all(Array.from({ length: 6 }, client)).then(() => (finished = true));
    for (let window = 0; window < 1_000 && !finished; window++) {
      // Saturated by 1,000 other requests a window: the share lets MIN_SEARCHES_PER_WINDOW start.
      share.endWindow({ utilization: SATURATED, requests: 1_000 });
      for (let ms = 0; ms < WINDOW_MS; ms += 10) {
        now += 10;
        await jest.advanceTimersByTimeAsync(10);
      }
    }
    await clients;
    expect(refusals).toEqual([]);
    expect(served).toBe(120);
  });

  it('refuses at once a search that finds too many waiting', () => {
    const share = shareOf({ concurrency: 1, maxWaiting: 3 });
    ask(share, 1).done[0]!(); // searches take no time: only the count of those waiting refuses
    const searches = ask(share, 5);
    expect(share.waitingCount).toBe(3);
    expect(searches.refusals).toEqual([REFUSAL]);
    expect(share.takeRefusedCount()).toBe(1);
    expect(share.takeRefusedCount()).toBe(0);
  });
});
