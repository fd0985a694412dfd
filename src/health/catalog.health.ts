import { Injectable, Logger } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import type { CatalogState } from '../catalog/catalog-state.repository';
import { CATALOG_STATE_TIMEOUT_MS, CatalogStateProvider } from '../catalog/catalog-state.provider';

/** A probe must answer in bounded time even when the database hangs. */
export const CATALOG_CHECK_TIMEOUT_MS = CATALOG_STATE_TIMEOUT_MS;

/** How long a finished check may answer probes that arrive while the next one runs. */
export const CHECK_REUSE_MS = 500;

/**
 * The terminus indicator behind /health: the catalog state read is the database check.
 *
 * A probe that finds no check running starts one (through the state provider, on the connections
 * requests use, not on the change feed's session) and answers with its result, so a lone probe
 * always sees the database as it is now: a finished ingest shows at once, an outage answers 500 within
 * CATALOG_CHECK_TIMEOUT_MS. A probe that arrives while a check is running answers at once with the
 * previous check's result when that check was sent less than CHECK_REUSE_MS ago, and otherwise
 * waits for the running one. A flood of probes therefore costs one query at a time and mostly
 * waits for none, and no answer is older than CHECK_REUSE_MS plus one query.
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
