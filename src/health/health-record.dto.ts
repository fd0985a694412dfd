import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ItemEnvelopeDto } from '../openapi/envelope.dto';
import { REQUEST_ID_EXAMPLE } from '../openapi/examples';
import type { HealthRecord } from './health-record';
import type { HealthResponse } from './health.service';

type HealthCatalog = HealthRecord['catalog'];

@ApiSchema({ name: 'HealthCatalog' })
export class HealthCatalogDto implements HealthCatalog {
  @ApiProperty({ type: 'string', nullable: true, description: 'null before any ingest' })
  catalog_version!: string | null;

  @ApiProperty({ type: 'integer', minimum: 0 })
  title_count!: number;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true, description: 'ISO 8601 UTC' })
  ingested_at!: string | null;

  @ApiProperty({
    type: 'boolean',
    description: 'Every title received an enrichment record in the last ingest',
  })
  enrichment_complete!: boolean;
}

@ApiSchema({ name: 'HealthRecord' })
export class HealthRecordDto implements HealthRecord {
  @ApiProperty({ enum: ['ok'], example: 'ok' })
  status!: 'ok';

  @ApiProperty({ type: 'string', description: 'APP_ENV', example: 'production' })
  environment!: string;

  @ApiProperty({ type: HealthCatalogDto })
  catalog!: HealthCatalogDto;
}

@ApiSchema({ name: 'HealthResponse' })
export class HealthResponseDto extends ItemEnvelopeDto(HealthRecordDto) {}

/** A healthy answer, as the OpenAPI document shows it. */
export const HEALTH_EXAMPLE: HealthResponse = {
  data: [
    {
      status: 'ok',
      environment: 'production',
      catalog: {
        catalog_version: '2026-11-28T03:00:00Z',
        title_count: 79611,
        ingested_at: '2026-11-28T03:04:12.517Z',
        enrichment_complete: true,
      },
    },
  ],
  meta: { request_id: REQUEST_ID_EXAMPLE },
};
