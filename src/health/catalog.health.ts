import { Injectable, Logger } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { type CatalogState, CatalogStateRepository } from '../catalog/catalog-state.repository';

/** A probe must answer in bounded time even when the database hangs. */
export const CATALOG_CHECK_TIMEOUT_MS = 2_000;

/**
 * The terminus indicator behind /health: the catalog query itself is the database check. Probes
 * that arrive while a check is running share its result, so a flood of probes costs one query at a
 * time. Nothing is kept once a check has finished, so a probe never reads a state older than the
 * query in flight when it arrived: a finished ingest shows at once, an outage answers 500 within
 * the timeout.
 */
@Injectable()
export class CatalogHealthIndicator {
  private readonly logger = new Logger('Health');
  private running: Promise<CatalogState> | null = null;

  constructor(
    private readonly indicators: HealthIndicatorService,
    private readonly catalogState: CatalogStateRepository,
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

  private currentState(): Promise<CatalogState> {
    this.running ??= withTimeout(this.catalogState.current(), CATALOG_CHECK_TIMEOUT_MS).finally(() => {
      this.running = null;
    });
    return this.running;
  }
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`catalog query exceeded ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
