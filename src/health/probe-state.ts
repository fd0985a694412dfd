import { ERROR_CATALOGUE } from '../common/errors/error-catalogue';
import type { HealthRecord } from './health-record';

/**
 * What HEALTH_PORT's thread answers from (`health-port.worker.ts`), kept current by the main thread
 * (`HealthServer`). Nothing here imports Nest: both threads load it.
 */

/** How often the main thread's event loop beats: a timer that only counts. */
export const HEARTBEAT_MS = 250;
/**
 * How often the main thread reads the catalog state for HEALTH_PORT's record: the age a record may
 * have when a probe during a running check reuses one on the API port (`CHECK_REUSE_MS`).
 */
export const READING_EVERY_MS = 500;
/**
 * A main thread whose heartbeat has not advanced for this long is stuck, not busy: probes on
 * HEALTH_PORT answer 500 until it beats again. Under the flood of `test/probe-under-flood.e2e-spec.ts`
 * on 2 cores the longest gap measured was well under a second (docs/operations.md, Probes).
 */
export const STUCK_AFTER_MS = 5_000;
/**
 * A record this old is not believed: the main thread beats but its readings stopped arriving. Each is
 * bounded at 2 s by the catalog query's timeout, so this only fires on a fault of the reading loop;
 * it is longer than STUCK_AFTER_MS by that timeout, so a stuck main thread is always named as such.
 */
export const READING_MAX_AGE_MS = STUCK_AFTER_MS + 2_000;

export const STARTING_MESSAGE = 'The service is starting.';
export const DRAINING_MESSAGE = 'The service is shutting down.';
export const STUCK_MESSAGE = 'The service is not responding.';

/** Where the process is in its life: ready only while serving. */
export const Phase = {
  /** The API port does not listen yet: traffic routed here would meet a closed port. */
  Starting: 0,
  Serving: 1,
  /** SIGTERM: readiness fails at once so the load balancer stops routing here. */
  Draining: 2,
} as const;
export type Phase = (typeof Phase)[keyof typeof Phase];

/** The main thread's last reading of the catalog: the record the API port would answer, or a failure. */
export type HealthReading = { ok: true; record: HealthRecord } | { ok: false; message: string };

/**
 * The words of an Int32Array over a SharedArrayBuffer, written by one thread and read by the other
 * without a message: a probe sees the drain the moment it starts, and a beat however busy the
 * worker's own loop is with probes.
 */
export const SHARED = {
  /** Counts up on every beat of the main thread (wraps; only a change matters). */
  heartbeat: 0,
  /** A `Phase`, set by the main thread. */
  phase: 1,
  /** Probes answered 200 and 500 on HEALTH_PORT, counted by the worker (for /metrics). */
  answeredOk: 2,
  answeredFailed: 3,
  length: 4,
} as const;

export const newSharedState = (): Int32Array =>
  new Int32Array(new SharedArrayBuffer(SHARED.length * Int32Array.BYTES_PER_ELEMENT));

/**
 * How long ago a counter last changed, as seen by a thread that looks at it now and then: the age of
 * the main thread's heartbeat, on the worker's own clock (no clock is compared across threads).
 */
export class BeatWatch {
  private seen: number | undefined;
  private seenAt: number;

  constructor(now: number) {
    this.seenAt = now;
  }

  /** The counter's value at `now`; returns how long it has not changed. */
  observe(beat: number, now: number): number {
    if (beat !== this.seen) {
      this.seen = beat;
      this.seenAt = now;
    }
    return now - this.seenAt;
  }
}

export interface ProbeState {
  phase: Phase;
  /** The last reading and how old it is, or null before the first one. */
  reading: { value: HealthReading; ageMs: number } | null;
  /** How long the main thread's heartbeat has not advanced. */
  heartbeatAgeMs: number;
}

/**
 * The answer to a probe: the record (200) only while the API port serves, the main thread beats and
 * its last reading is recent and good; else 500 INTERNAL_ERROR with the reason.
 */
export function probeAnswer(state: ProbeState): HealthReading {
  if (state.phase === Phase.Draining) return { ok: false, message: DRAINING_MESSAGE };
  if (state.heartbeatAgeMs > STUCK_AFTER_MS) return { ok: false, message: STUCK_MESSAGE };
  if (state.phase === Phase.Starting || state.reading === null) {
    return { ok: false, message: STARTING_MESSAGE };
  }
  if (state.reading.ageMs > READING_MAX_AGE_MS) {
    return { ok: false, message: ERROR_CATALOGUE.INTERNAL_ERROR.message };
  }
  return state.reading.value;
}
