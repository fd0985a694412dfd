import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { PublicRoute, RequestId } from '../route-kit';
import { HEALTH_EXAMPLE, HealthResponseDto } from './health-record.dto';
import { type HealthResponse, HealthService } from './health.service';

@Controller('health')
@ApiTags('health')
@PublicRoute()
export class HealthController {
  constructor(private readonly health: HealthService) {}

  /**
   * Public. The indicator is read directly: HealthCheckService would rethrow as a 503 (the contract
   * says 500) and cost every probe ~5% more CPU.
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
  @PublicRoute.ok(HealthResponseDto, 'The service and the catalog query are healthy', {
    example: HEALTH_EXAMPLE,
  })
  @PublicRoute.errors('INTERNAL_ERROR')
  check(@RequestId() requestId: string): Promise<HealthResponse> {
    return this.health.check(requestId);
  }
}
