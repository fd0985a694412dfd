import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { LIMITS } from '../limits/limit-table';
import { ItemEnvelopeDto } from '../openapi/envelope.dto';
import { REQUEST_ID_EXAMPLE } from '../openapi/examples';

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
ApiProperty({
  type: 'string',
  format: 'date-time',
  required: false,
  description:
    'ISO 8601 UTC: from this instant the key is refused (403 API_KEY_DISABLED); absent when it never expires',
})(KeyUsageDto.prototype, 'expires_at');
ApiProperty({
  type: 'string',
  format: 'date-time',
  required: false,
  description:
    "ISO 8601 UTC, only while a rotation's overlap runs: when the key's previous secret stops working (403 API_KEY_DISABLED from then on)",
})(KeyUsageDto.prototype, 'previous_key_ends_at');

@ApiSchema({ name: 'UsageResponse' })
export class UsageResponseDto extends ItemEnvelopeDto(KeyUsageDto) {}

/** A key's usage as the OpenAPI document shows it: 120 a minute, 100,000 a month (the limit table's fields). */
const EXAMPLE_WINDOWS: Record<string, { limit: number; window: WindowUsageDto }> = {
  minute: { limit: 120, window: { used: 1, remaining: 119, resets_at: '2026-11-29T04:31:00.000Z' } },
  month: { limit: 100000, window: { used: 126, remaining: 99874, resets_at: '2026-12-01T00:00:00.000Z' } },
};

export const USAGE_EXAMPLE = {
  data: [
    {
      key_id: '0f8e2d4c-3b1a-4e5f-9a6b-7c8d9e0f1a2b',
      ...Object.fromEntries(LIMITS.map((row) => [row.limit.field, EXAMPLE_WINDOWS[row.name]?.limit ?? 1])),
      ...Object.fromEntries(
        LIMITS.map((row) => [
          row.name,
          EXAMPLE_WINDOWS[row.name]?.window ?? { used: 0, remaining: 1, resets_at: null },
        ]),
      ),
    },
  ],
  meta: { request_id: REQUEST_ID_EXAMPLE },
};
