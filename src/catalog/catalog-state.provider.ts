import { Injectable } from '@nestjs/common';
import { type CatalogState, CatalogStateRepository } from './catalog-state.repository';

/** A state read must settle in bounded time even when the database hangs. */
export const CATALOG_STATE_TIMEOUT_MS = 2_000;

/** A state read and when it was sent: the state is at least as new as `sentAt`. */
export interface StateReading {
  state: CatalogState;
  sentAt: number;
}

/**
 * The live catalog state (version, title count, ingest time, enrichment) as this process knows it.
 *
 * `fresh()` never answers from a finished read: it joins the read in flight, or sends one, so its
 * answer is no older than the read it joined (at most one query's duration, bounded by
 * CATALOG_STATE_TIMEOUT_MS) and a database outage fails it. Any number of concurrent callers share
 * one query, so under load the state costs one small query at a time, whatever the request rate.
 * `last()` is the newest successful reading, for callers that check an answer afterwards.
 */
@Injectable()
export class CatalogStateProvider {
  private inFlight: Promise<StateReading> | null = null;
  private newest: StateReading | null = null;

  constructor(private readonly repository: CatalogStateRepository) {}

  fresh(): Promise<StateReading> {
    this.inFlight ??= this.read().finally(() => {
      this.inFlight = null;
    });
    return this.inFlight;
  }

  last(): StateReading | null {
    return this.newest;
  }

  private async read(): Promise<StateReading> {
    const sentAt = Date.now();
    const state = await withTimeout(this.repository.current(), CATALOG_STATE_TIMEOUT_MS);
    const reading = { state, sentAt };
    if (!this.newest || this.newest.sentAt <= sentAt) this.newest = reading;
    return reading;
  }
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`catalog state query exceeded ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
