import {
  MAX_SEARCH_WAIT_MS,
  MAX_WAITING_SEARCHES,
  MIN_SEARCHES_PER_WINDOW,
  SEARCH_SHARE,
  SearchShare,
} from './search-share';

const SATURATED = 0.95;
const IDLE = 0.3;

/** Starts `count` searches; the returned list says, per search, whether it has started. */
function ask(share: SearchShare, count: number) {
  const started: boolean[] = [];
  const failures: unknown[] = [];
  for (let i = 0; i < count; i++) {
    const waiting = share.admit();
    started.push(waiting === undefined);
    if (waiting)
      waiting.then(
        () => (started[i] = true),
        (error: unknown) => failures.push(error),
      );
  }
  return { started, failures, count: () => started.filter(Boolean).length };
}

const settle = () =>
  new Promise((resolve) => jest.requireActual<typeof import('timers')>('timers').setImmediate(resolve));

describe('SearchShare', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('lets every search start at once while the process is not saturated', () => {
    const share = new SearchShare();
    share.endWindow({ utilization: IDLE, requests: 5_000 });
    expect(ask(share, 500).count()).toBe(500);
  });

  it('lets searches alone use a saturated process', () => {
    const share = new SearchShare();
    ask(share, 300);
    share.endWindow({ utilization: SATURATED, requests: 300 });
    expect(ask(share, 300).count()).toBe(300);
  });

  it('gives searches their share of a saturated process that other requests need', async () => {
    const share = new SearchShare();
    ask(share, 100);
    // 100 searches and 900 other requests arrived in a saturated window.
    share.endWindow({ utilization: SATURATED, requests: 1_000 });
    const budget = Math.floor((900 * SEARCH_SHARE) / (1 - SEARCH_SHARE));
    const next = ask(share, 300);
    expect(next.count()).toBe(budget);
    // The next window starts the waiting searches, first come first served, within its budget.
    share.endWindow({ utilization: SATURATED, requests: 1_200 });
    await settle();
    expect(next.started.slice(0, 2 * budget)).toEqual(Array(2 * budget).fill(true));
    expect(next.count()).toBe(2 * budget);
    // Once the process is no longer saturated every waiting search starts.
    share.endWindow({ utilization: IDLE, requests: 1_000 });
    await settle();
    expect(next.count()).toBe(300);
    expect(share.waitingCount).toBe(0);
  });

  it('always lets a few searches start, however much other traffic there is', () => {
    const share = new SearchShare();
    share.endWindow({ utilization: SATURATED, requests: 3 });
    expect(ask(share, 50).count()).toBe(MIN_SEARCHES_PER_WINDOW);
  });

  it('answers 500 to a search that cannot start in time, and to one that finds too many waiting', async () => {
    const share = new SearchShare();
    share.endWindow({ utilization: SATURATED, requests: 10 });
    const first = ask(share, MIN_SEARCHES_PER_WINDOW + 1);
    expect(first.count()).toBe(MIN_SEARCHES_PER_WINDOW);
    jest.advanceTimersByTime(MAX_SEARCH_WAIT_MS);
    await settle();
    expect(first.failures).toEqual([expect.objectContaining({ code: 'INTERNAL_ERROR' })]);
    expect(share.waitingCount).toBe(0);

    ask(share, MAX_WAITING_SEARCHES);
    expect(share.waitingCount).toBe(MAX_WAITING_SEARCHES);
    expect(() => share.admit()).toThrow(expect.objectContaining({ code: 'INTERNAL_ERROR' }));
  });
});
