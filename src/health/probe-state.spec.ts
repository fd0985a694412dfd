import type { HealthRecord } from './health-record';
import {
  BeatWatch,
  DRAINING_MESSAGE,
  Phase,
  type ProbeState,
  READING_MAX_AGE_MS,
  STARTING_MESSAGE,
  STUCK_AFTER_MS,
  STUCK_MESSAGE,
  probeAnswer,
} from './probe-state';

const record: HealthRecord = {
  status: 'ok',
  environment: 'test',
  catalog: { catalog_version: 'v1', title_count: 3, ingested_at: null, enrichment_complete: true },
};

const serving = (overrides: Partial<ProbeState> = {}): ProbeState => ({
  phase: Phase.Serving,
  reading: { value: { ok: true, record }, ageMs: 100 },
  heartbeatAgeMs: 100,
  ...overrides,
});

describe("HEALTH_PORT's answer from the main thread's state", () => {
  it('is the record while the API port serves, the main thread beats and its reading is good', () => {
    expect(probeAnswer(serving())).toEqual({ ok: true, record });
  });

  it('is the failed reading as the main thread read it (the catalog query failed)', () => {
    const failed = { ok: false, message: 'An internal error occurred.' } as const;
    expect(probeAnswer(serving({ reading: { value: failed, ageMs: 100 } }))).toEqual(failed);
  });

  it('fails before the API port listens, and before the first reading', () => {
    expect(probeAnswer(serving({ phase: Phase.Starting }))).toEqual({ ok: false, message: STARTING_MESSAGE });
    expect(probeAnswer(serving({ reading: null }))).toEqual({ ok: false, message: STARTING_MESSAGE });
  });

  it('fails from the start of the drain, whatever else holds', () => {
    expect(probeAnswer(serving({ phase: Phase.Draining }))).toEqual({ ok: false, message: DRAINING_MESSAGE });
    expect(probeAnswer(serving({ phase: Phase.Draining, heartbeatAgeMs: STUCK_AFTER_MS + 1 }))).toEqual({
      ok: false,
      message: DRAINING_MESSAGE,
    });
  });

  it(`a busy main thread is healthy; one silent for over ${STUCK_AFTER_MS} ms is stuck`, () => {
    expect(probeAnswer(serving({ heartbeatAgeMs: STUCK_AFTER_MS }))).toEqual({ ok: true, record });
    expect(probeAnswer(serving({ heartbeatAgeMs: STUCK_AFTER_MS + 1 }))).toEqual({
      ok: false,
      message: STUCK_MESSAGE,
    });
  });

  it(`a reading older than ${READING_MAX_AGE_MS} ms is not believed`, () => {
    const old = { value: { ok: true, record } as const, ageMs: READING_MAX_AGE_MS + 1 };
    expect(probeAnswer(serving({ reading: old }))).toEqual({
      ok: false,
      message: 'An internal error occurred.',
    });
  });
});

describe('BeatWatch', () => {
  it('measures how long the counter has not changed, on the watching thread’s clock', () => {
    const watch = new BeatWatch(1_000);
    expect(watch.observe(7, 1_000)).toBe(0);
    expect(watch.observe(7, 1_400)).toBe(400);
    expect(watch.observe(8, 1_500)).toBe(0);
    expect(watch.observe(8, 7_000)).toBe(5_500);
    // The counter wraps: only a change matters.
    expect(watch.observe(-2_147_483_648, 7_100)).toBe(0);
  });

  it('counts from its own start until the first beat is seen', () => {
    const watch = new BeatWatch(0);
    expect(watch.observe(0, 0)).toBe(0);
    expect(watch.observe(0, 6_000)).toBe(6_000);
  });
});
