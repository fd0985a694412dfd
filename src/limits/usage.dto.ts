import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ItemEnvelopeDto } from '../openapi/envelope.dto';
import type { KeyUsage, WindowUsage } from './usage.service';

@ApiSchema({ name: 'WindowUsage' })
export class WindowUsageDto implements WindowUsage {
  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description: 'Requests counted in this window, including allowance other replicas reserved',
  })
  used!: number;

  @ApiProperty({ type: 'integer', minimum: 0 })
  remaining!: number;

  @ApiProperty({
    type: 'string',
    format: 'date-time',
    nullable: true,
    description: 'ISO 8601 UTC; null for a minute with no window open (the next request starts one)',
  })
  resets_at!: string | null;
}

@ApiSchema({ name: 'KeyUsage' })
export class KeyUsageDto implements KeyUsage {
  @ApiProperty({ type: 'string', description: 'The key id, as keys:list shows it' })
  key_id!: string;

  @ApiProperty({ type: 'integer', minimum: 1, description: 'Requests per minute' })
  rpm!: number;

  @ApiProperty({ type: 'integer', minimum: 1, description: 'Requests per calendar month (UTC)' })
  monthly_quota!: number;

  @ApiProperty({ type: WindowUsageDto })
  minute!: WindowUsageDto;

  @ApiProperty({ type: WindowUsageDto })
  month!: WindowUsageDto;
}

@ApiSchema({ name: 'UsageResponse' })
export class UsageResponseDto extends ItemEnvelopeDto(KeyUsageDto) {}
