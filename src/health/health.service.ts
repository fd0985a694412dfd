import { Inject, Injectable } from '@nestjs/common';
import type { CatalogState } from '../catalog/catalog-state.repository';
import { ApiError } from '../common/errors/api-error';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { DrainState } from '../server/drain-state';
import { CatalogHealthIndicator } from './catalog.health';
import type { HealthRecord } from './health-record';
import { DRAINING_MESSAGE, type HealthReading } from './probe-state';

/** The health envelope of the contract. */
export interface HealthResponse {
  data: [HealthRecord];
  meta: { request_id: string };
}

/**
 * The one answer to a health probe, on the API port (`HealthController`) and on HEALTH_PORT (whose
 * thread answers from `reading()`s, `HealthServer`): the record while the catalog query answers,
 * else 500 INTERNAL_ERROR.
 */
@Injectable()
export class HealthService {
  private lastRecord: { state: CatalogState; record: HealthRecord } | undefined;
  private readonly counted = { ok: 0, failed: 0 };
  private readonly otherCounts: (() => { ok: number; failed: number })[] = [];

  constructor(
    private readonly catalogIndicator: CatalogHealthIndicator,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly drain: DrainState,
  ) {}

  /** Checks answered since the process started, on either port (for /metrics). */
  get answered(): { ok: number; failed: number } {
    const total = { ...this.counted };
    for (const counts of this.otherCounts) {
      const { ok, failed } = counts();
      total.ok += ok;
      total.failed += failed;
    }
    return total;
  }

  /** Adds the checks another listener answered (HEALTH_PORT's thread counts its own). */
  countAnswersOf(counts: () => { ok: number; failed: number }): void {
    this.otherCounts.push(counts);
  }

  async check(requestId: string): Promise<HealthResponse> {
    try {
      const response = await this.answer(requestId);
      this.counted.ok++;
      return response;
    } catch (error) {
      this.counted.failed++;
      throw error;
    }
  }

  /**
   * The catalog's record as a check now would answer it (a running check's result is shared), or the
   * failure's message, with its cause for the caller to log; the drain is the caller's to know.
   */
  async reading(): Promise<HealthReading & { cause?: unknown }> {
    try {
      return { ok: true, record: this.recordOf(await this.catalogIndicator.read()) };
    } catch (cause) {
      return { ok: false, message: new ApiError('INTERNAL_ERROR').message, cause };
    }
  }

  private async answer(requestId: string): Promise<HealthResponse> {
    // Readiness fails at once when the drain starts, so the load balancer stops routing here. The
    // drain logs its own start and end: each refused probe is expected, not an error to log.
    if (this.drain.draining) throw ApiError.expected('INTERNAL_ERROR', DRAINING_MESSAGE);
    let state: CatalogState | undefined;
    const result = await this.catalogIndicator.check('catalog', (current) => (state = current));
    if (result.catalog.status !== 'up' || !state) throw new ApiError('INTERNAL_ERROR');
    return { data: [this.recordOf(state)], meta: { request_id: requestId } };
  }

  /** Probes that share a check reading share its record too: it is built once per reading. */
  private recordOf(state: CatalogState): HealthRecord {
    if (this.lastRecord?.state === state) return this.lastRecord.record;
    const record: HealthRecord = {
      status: 'ok',
      environment: this.config.environment,
      catalog: {
        catalog_version: state.catalogVersion,
        title_count: state.titleCount,
        ingested_at: state.ingestedAt ? state.ingestedAt.toISOString() : null,
        enrichment_complete: state.enrichmentComplete,
      },
    };
    this.lastRecord = { state, record };
    return record;
  }
}
