import type { HealthReading } from './probe-state';

/** What HEALTH_PORT serves, and all it serves. */
export const HEALTH_PATH = '/health';

/**
 * HEALTH_PORT's bounds (docs/operations.md, Probes). A probe sends one small head and waits seconds at
 * most (the manifests' timeout is 3 s), so a connection gets a few seconds for all of it, checked
 * every second rather than Node's 30 s; few connections at once, each closed after its answer. A
 * connection with no traffic at all is cut after the head's bound and its check, so a slow head is
 * answered 408 first.
 */
export const HEALTH_SERVER_BOUNDS = {
  maxConnections: 64,
  headersTimeoutMs: 5_000,
  requestTimeoutMs: 5_000,
  checkEveryMs: 1_000,
  idleSocketTimeoutMs: 8_000,
} as const;

/** What the main thread gives HEALTH_PORT's thread as it starts. */
export interface HealthWorkerData {
  port: number;
  host: string;
  /** `SHARED`'s words. */
  shared: Int32Array;
}

export type ToHealthWorker = { type: 'reading'; reading: HealthReading };

export type FromHealthWorker =
  | { type: 'listening' }
  | { type: 'listen-failed'; error: { message: string; code?: string; syscall?: string } }
  | { type: 'debug'; message: string };
