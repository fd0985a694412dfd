import { OVERLOAD_RETRY_AFTER_SECONDS } from '../../common/access/access-headers';
import {
  ASSUMED_SEARCH_DURATION_MS,
  MAX_SEARCH_WAIT_MS,
  MIN_SEARCHES_PER_WINDOW,
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
    // 100 searches and 900 other requests arrived in a saturated window.
    share.endWindow({ utilization: SATURATED, requests: 1_000 });
    const budget = Math.floor((900 * SEARCH_SHARE) / (1 - SEARCH_SHARE));
    const next = ask(share, 300);
    expect(next.count()).toBe(budget);
    // The next window (100 ms away) has room for `budget` more; the one after is beyond the bound.
    expect(share.waitingCount).toBe(budget);
    expect(next.refusals).toHaveLength(300 - 2 * budget);
    expect(next.refusals).toEqual(Array(300 - 2 * budget).fill(REFUSAL));
    // The next window starts the waiting searches, first come first served, within its budget.
    now += WINDOW_MS;
    share.endWindow({ utilization: SATURATED, requests: 1_200 });
    await settle();
    expect(next.started.slice(0, 2 * budget)).toEqual(Array(2 * budget).fill(true));
    expect(share.waitingCount).toBe(0);
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
    const share = shareOf({ concurrency: 2 });
    // Searches have taken 50 ms: with 2 running, a slot frees every 25 ms on average.
    const first = ask(share, 2);
    now += 50;
    first.done.forEach((finish) => finish!());
    const searches = ask(share, 12);
    const fitting = Math.floor(MAX_SEARCH_WAIT_MS / 25); // places 1..6 start within 150 ms
    expect(searches.count()).toBe(2);
    expect(share.waitingCount).toBe(fitting);
    expect(searches.refusals).toEqual(Array(12 - 2 - fitting).fill(REFUSAL));
  });

  it('before any search has finished, estimates waits with the assumed duration', () => {
    const share = shareOf({ concurrency: 1 });
    const searches = ask(share, 4);
    // 1 runs; the n-th waiting place would wait n × the assumed duration.
    const fitting = Math.floor(MAX_SEARCH_WAIT_MS / ASSUMED_SEARCH_DURATION_MS);
    expect(searches.count()).toBe(1);
    expect(share.waitingCount).toBe(fitting);
    expect(searches.refusals).toEqual(Array(4 - 1 - fitting).fill(REFUSAL));
  });

  it('refuses a waiting search beyond the next round that has not started when the bound ends', async () => {
    const share = shareOf({ concurrency: 1 });
    ask(share, 1).done[0]!(); // searches take no time: every place is within the bound on arrival
    const searches = ask(share, 3);
    expect(share.waitingCount).toBe(2);
    jest.advanceTimersByTime(MAX_SEARCH_WAIT_MS - 1);
    await settle();
    expect(searches.refusals).toEqual([]);
    jest.advanceTimersByTime(1);
    await settle();
    // The first waiting search is in the next round: it waits for the running one, however long.
    expect(searches.refusals).toEqual([REFUSAL]);
    expect(share.waitingCount).toBe(1);
    jest.advanceTimersByTime(10 * MAX_SEARCH_WAIT_MS);
    searches.done[0]!();
    await settle();
    expect(searches.started).toEqual([true, true, false]);
    // The refused search never runs, and does not hold a slot.
    searches.done[1]!();
    expect(share.runningCount).toBe(0);
  });

  it.each([
    ['idle', IDLE],
    ['saturated (a share in force)', SATURATED],
  ])(
    'serves a few clients at once however slow searches are, the process %s: a search in the next round is never refused',
    async (_, utilization) => {
      const share = shareOf({ concurrency: 2 });
      // Searches have taken 2 s: any wait estimate is far beyond the bound.
      const slow = ask(share, 2);
      now += 2_000;
      slow.done.forEach((finish) => finish!());
      share.endWindow({ utilization, requests: 1_000 });
      const searches = ask(share, 5);
      expect(searches.count()).toBe(2);
      expect(share.waitingCount).toBe(2);
      expect(searches.refusals).toEqual([REFUSAL]);
      jest.advanceTimersByTime(10 * MAX_SEARCH_WAIT_MS);
      searches.done[0]!();
      searches.done[1]!();
      await settle();
      expect(searches.started).toEqual([true, true, true, true, false]);
    },
  );

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
