import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { LIMITS } from '../limits/limit-table';
import { ItemEnvelopeDto } from '../openapi/envelope.dto';

@ApiSchema({ name: 'WindowUsage' })
export class WindowUsageDto {
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

/** The key's id, each limit's policy field, then each limit's window: built from the limit table. */
@ApiSchema({ name: 'KeyUsage' })
export class KeyUsageDto {
  @ApiProperty({ type: 'string', description: 'The key id, as keys:list shows it' })
  key_id!: string;
}
for (const row of LIMITS) {
  ApiProperty({ type: 'integer', minimum: 1, description: row.limit.description })(
    KeyUsageDto.prototype,
    row.limit.field,
  );
}
for (const row of LIMITS) ApiProperty({ type: WindowUsageDto })(KeyUsageDto.prototype, row.name);

@ApiSchema({ name: 'UsageResponse' })
export class UsageResponseDto extends ItemEnvelopeDto(KeyUsageDto) {}
