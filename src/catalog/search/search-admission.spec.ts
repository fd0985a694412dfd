import {
  ASSUMED_SEARCH_DURATION_MS,
  DURATION_WINDOW,
  MAX_SEARCH_ANSWER_MS,
  SearchAdmission,
  type SearchDone,
} from './search-admission';

/** Asks `count` searches; per search, whether it has started, its refusal, and how to finish it. */
function ask(admission: SearchAdmission, count: number) {
  const started: boolean[] = [];
  const done: Array<SearchDone | undefined> = [];
  const refusals: unknown[] = [];
  for (let i = 0; i < count; i++) {
    let admitted: Promise<SearchDone> | SearchDone;
    try {
      admitted = admission.admit();
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

const settle = () => new Promise((resolve) => setImmediate(resolve));

/** A refusal: the contract's 500, with no header of its own, not logged one by one. */
const REFUSAL = expect.objectContaining({ code: 'INTERNAL_ERROR', expected: true });

describe('SearchAdmission', () => {
  let now: number;
  const admissionOf = (concurrency: number) => new SearchAdmission({ concurrency, clock: () => now });
  /** Finishes one search that took `ms`, so the running average has a measured duration. */
  const measure = async (admission: SearchAdmission, ms: number) => {
    const done = admission.admit() as SearchDone;
    now += ms;
    done();
    await settle();
  };

  /** The injected clock and the (fake) timers move together: nothing else happens meanwhile. */
  const advance = (ms: number) => {
    now += ms;
    jest.advanceTimersByTime(ms);
  };

  beforeEach(() => {
    now = 1_000_000;
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] });
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  it('runs at most `concurrency` searches at once and starts the waiting ones in arrival order', async () => {
    const admission = admissionOf(2);
    const searches = ask(admission, 5);
    await settle();
    expect(searches.started).toEqual([true, true, false, false, false]);
    expect([admission.runningCount, admission.waitingCount]).toEqual([2, 3]);

    searches.done[1]!();
    await settle();
    expect(searches.started).toEqual([true, true, true, false, false]);
    // Finishing twice frees one slot only.
    searches.done[1]!();
    await settle();
    expect(searches.count()).toBe(3);
    searches.done[0]!();
    searches.done[2]!();
    await settle();
    expect(searches.count()).toBe(5);
    expect(searches.refusals).toEqual([]);
  });

  it('serves a burst that can start within the bound: 64 at once on 4 connections', async () => {
    const admission = admissionOf(4);
    await measure(admission, 40);
    // 60 must finish before the last starts: 60 × 40 ms / 4 = 600 ms, answered within 640 ms.
    const burst = ask(admission, 64);
    expect(burst.refusals).toEqual([]);
    // They start in arrival order as the ones before them finish: one every 10 ms on 4 connections.
    for (let next = 0; next < 64; next++) {
      await settle();
      now += 10;
      burst.done[next]!();
    }
    await settle();
    expect(burst.count()).toBe(64);
    expect(burst.refusals).toEqual([]);
  });

  it('refuses on arrival, at once, the search that could not be answered within the bound', async () => {
    const admission = admissionOf(2);
    await measure(admission, 100);
    // The k-th search beyond the two running waits for k slots, k × 100 ms / 2, then runs 100 ms:
    // 18 fit in 1 s.
    const fit = ((MAX_SEARCH_ANSWER_MS - 100) * 2) / 100;
    const searches = ask(admission, 2 + fit + 3);
    expect(searches.count()).toBe(2);
    expect(admission.waitingCount).toBe(fit);
    expect(searches.refusals).toEqual([REFUSAL, REFUSAL, REFUSAL]);
    expect(admission.refusedCount).toBe(3);

    // A slot freed: the next arrival fits again.
    searches.done[0]!();
    await settle();
    expect(ask(admission, 1).refusals).toEqual([]);
  });

  it('assumes a short duration until one is measured, so a fresh replica serves a burst', () => {
    const admission = admissionOf(4);
    // 4 start at once; then those answered within the bound on the assumed duration.
    const fit =
      4 + Math.floor(((MAX_SEARCH_ANSWER_MS - ASSUMED_SEARCH_DURATION_MS) * 4) / ASSUMED_SEARCH_DURATION_MS);
    expect(fit).toBeGreaterThan(64);
    expect(ask(admission, fit).refusals).toEqual([]);
    expect(ask(admission, 1).refusals).toEqual([REFUSAL]);
  });

  it('serves a burst of quick searches soon after one slow cold search', async () => {
    const admission = admissionOf(4);
    await measure(admission, 300);
    for (let i = 0; i < 5; i++) await measure(admission, 5);
    expect(ask(admission, 64).refusals).toEqual([]);
  });

  it('weighs one slow search as one of the last DURATION_WINDOW, so a burst after it is served', async () => {
    const admission = admissionOf(4);
    for (let i = 0; i < DURATION_WINDOW; i++) await measure(admission, 20);
    await measure(admission, 500);
    // (15 × 20 + 500) / 16 = 50 ms: 4 start, and the k-th waiting one fits while k × 50 / 4 + 50 ≤ 1000.
    const fit = 4 + Math.floor(((MAX_SEARCH_ANSWER_MS - 50) * 4) / 50);
    expect(fit).toBeGreaterThan(64);
    expect(ask(admission, fit).refusals).toEqual([]);
    expect(ask(admission, 1).refusals).toEqual([REFUSAL]);
  });

  it('forgets durations older than the window', async () => {
    const admission = admissionOf(4);
    for (let i = 0; i < DURATION_WINDOW; i++) await measure(admission, 400);
    for (let i = 0; i < DURATION_WINDOW; i++) await measure(admission, 10);
    // Only the quick ones count now: as many fit as on 10 ms from the start.
    const fit = 4 + Math.floor(((MAX_SEARCH_ANSWER_MS - 10) * 4) / 10);
    expect(ask(admission, fit).refusals).toEqual([]);
    expect(ask(admission, 1).refusals).toEqual([REFUSAL]);
  });

  it('starts a waiting search whose turn comes within the bound, however slow the search ahead', async () => {
    const admission = admissionOf(1);
    await measure(admission, 10);
    const searches = ask(admission, 2);
    // Far slower than the average said (10 ms), but the next one can still start within 1 s.
    now += MAX_SEARCH_ANSWER_MS - 1;
    searches.done[0]!();
    await settle();
    expect(searches.refusals).toEqual([]);
    expect(admission.runningCount).toBe(1);
  });

  it('refuses a waiting search that could not start within the bound', async () => {
    const admission = admissionOf(1);
    await measure(admission, 10);
    const searches = ask(admission, 3);
    expect(searches.count()).toBe(1);
    // The database stalls: the running search takes far longer than the average said.
    now += MAX_SEARCH_ANSWER_MS;
    searches.done[0]!();
    await settle();
    expect(searches.refusals).toEqual([REFUSAL, REFUSAL]);
    expect(admission.waitingCount).toBe(0);
    expect(admission.runningCount).toBe(0);
  });

  it('refuses a waiting search at its deadline when nothing else happens, with the running one stuck', async () => {
    const admission = admissionOf(1);
    await measure(admission, 10);
    const searches = ask(admission, 2);
    expect(searches.count()).toBe(1);
    expect(jest.getTimerCount()).toBe(1);
    // The running search never finishes and no search arrives: only the timer can refuse the waiting one.
    advance(MAX_SEARCH_ANSWER_MS - 1);
    await settle();
    expect(searches.refusals).toEqual([]);
    advance(1);
    await settle();
    expect(searches.refusals).toEqual([REFUSAL]);
    expect(admission.waitingCount).toBe(0);
    expect(admission.runningCount).toBe(1);
    // No search waits: no timer is left.
    expect(jest.getTimerCount()).toBe(0);
  });

  it('re-arms the timer for the next waiting search, refusing each at its own deadline', async () => {
    const admission = admissionOf(1);
    await measure(admission, 10);
    const first = ask(admission, 2);
    advance(300);
    const second = ask(admission, 1);
    advance(MAX_SEARCH_ANSWER_MS - 300);
    await settle();
    expect([first.refusals.length, second.refusals.length]).toEqual([1, 0]);
    expect(jest.getTimerCount()).toBe(1);
    advance(299);
    await settle();
    expect(second.refusals).toEqual([]);
    advance(1);
    await settle();
    expect(second.refusals).toEqual([REFUSAL]);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('clears the timer when the waiting search starts, and arms none while searches start at once', async () => {
    const admission = admissionOf(1);
    await measure(admission, 10);
    expect(jest.getTimerCount()).toBe(0);
    const searches = ask(admission, 2);
    expect(jest.getTimerCount()).toBe(1);
    advance(500);
    searches.done[0]!();
    await settle();
    expect(searches.count()).toBe(2);
    expect(jest.getTimerCount()).toBe(0);
    advance(MAX_SEARCH_ANSWER_MS);
    await settle();
    expect(searches.refusals).toEqual([]);
  });
});
