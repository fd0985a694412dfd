import { Injectable, Logger } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import type { CatalogState } from '../catalog/catalog-state.repository';
import { CATALOG_STATE_TIMEOUT_MS, CatalogStateProvider } from '../catalog/catalog-state.provider';

/** A probe must answer in bounded time even when the database hangs. */
export const CATALOG_CHECK_TIMEOUT_MS = CATALOG_STATE_TIMEOUT_MS;

/** How long a finished check may answer probes that arrive while the next one runs. */
export const CHECK_REUSE_MS = 500;

/**
 * /health's check: a fresh state read on the requests' connections. Probes during a running check
 * reuse a result younger than CHECK_REUSE_MS, so a flood costs one query at a time.
 */
@Injectable()
export class CatalogHealthIndicator {
  private readonly logger = new Logger('Health');
  private running: Promise<CatalogState> | null = null;
  private previous: { state: CatalogState; sentAt: number } | null = null;

  constructor(
    private readonly indicators: HealthIndicatorService,
    private readonly catalogState: CatalogStateProvider,
  ) {}

  async check(key: string, onState: (state: CatalogState) => void) {
    const indicator = this.indicators.check(key);
    try {
      onState(await this.currentState());
      return indicator.up();
    } catch (error) {
      this.logger.warn({ err: error }, 'The catalog query failed');
      return indicator.down({ message: error instanceof Error ? error.message : String(error) });
    }
  }

  /** The state as `check` reads it, without the indicator or a log line: HEALTH_PORT's readings. */
  async read(): Promise<CatalogState> {
    return this.currentState();
  }

  private currentState(): Promise<CatalogState> | CatalogState {
    if (this.running) {
      if (this.previous && Date.now() - this.previous.sentAt < CHECK_REUSE_MS) return this.previous.state;
      return this.running;
    }
    this.running = this.catalogState
      .freshOnPool()
      .then(
        (reading) => {
          this.previous = reading;
          return reading.state;
        },
        (error: unknown) => {
          this.previous = null;
          throw error;
        },
      )
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }
}
