import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { CatalogState } from '../catalog/catalog-state.repository';
import { ApiError } from '../common/errors/api-error';
import { Public } from '../common/routing/public-route.decorator';
import { RequestId } from '../common/request-id/request-id.decorator';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { DrainState } from '../server/drain-state';
import { ApiErrorResponses, ApiOkEnvelope, ApiRequestIdHeader } from '../openapi/api-responses.decorator';
import { CatalogHealthIndicator } from './catalog.health';
import type { HealthRecord } from './health-record';
import { HealthResponseDto } from './health-record.dto';

@Public()
@Controller('health')
@ApiTags('health')
@ApiRequestIdHeader()
export class HealthController {
  private lastRecord: { state: CatalogState; record: HealthRecord } | undefined;

  constructor(
    private readonly catalogIndicator: CatalogHealthIndicator,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly drain: DrainState,
  ) {}

  /**
   * Public. The catalog indicator (terminus's indicator API) is the one check, read directly:
   * terminus's HealthCheckService would only rethrow its result as a 503, which the contract
   * answers as a 500, and its executor cost every probe ~5% more CPU.
   */
  @Get()
  @ApiOperation({
    summary: 'Liveness and readiness: the service and its catalog query; no API key',
    description:
      'The environment and the live catalog (version, title count, ingest time, enrichment). Public and ' +
      'not metered; 500 INTERNAL_ERROR when the catalog query fails or the service is shutting down. ' +
      'Query parameters are ignored.',
    security: [],
  })
  @ApiOkEnvelope(HealthResponseDto, 'public', 'The service and the catalog query are healthy')
  @ApiErrorResponses('public', 'INTERNAL_ERROR')
  async check(
    @RequestId() requestId: string,
  ): Promise<{ data: [HealthRecord]; meta: { request_id: string } }> {
    // Readiness fails at once when the drain starts, so the load balancer stops routing here. The
    // drain logs its own start and end: each refused probe is expected, not an error to log.
    if (this.drain.draining) throw ApiError.expected('INTERNAL_ERROR', 'The service is shutting down.');
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
