import type { Type } from '@nestjs/common';
import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { MAX_PAGE, MAX_PER_PAGE, type PageMeta, type RequestMeta } from '../common/envelope';

const REQUEST_ID = {
  type: 'string',
  description: 'Equals the X-Request-Id response header',
  example: '3f6c0b8e-5d2a-4c61-9a57-0f4be1d0c2aa',
} as const;

@ApiSchema({ name: 'RequestMeta' })
export class RequestMetaDto implements RequestMeta {
  @ApiProperty(REQUEST_ID)
  request_id!: string;
}

@ApiSchema({ name: 'PageMeta' })
export class PageMetaDto implements PageMeta {
  @ApiProperty(REQUEST_ID)
  request_id!: string;

  @ApiProperty({ type: 'integer', minimum: 1, maximum: MAX_PAGE, description: 'The requested page' })
  page!: number;

  @ApiProperty({ type: 'integer', minimum: 1, maximum: MAX_PER_PAGE, description: 'The requested limit' })
  per_page!: number;

  @ApiProperty({ type: 'integer', minimum: 0 })
  total_results!: number;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'ceil(total_results / per_page)' })
  total_pages!: number;
}

/**
 * A one-item envelope to extend and name, like Nest's mapped types:
 * `@ApiSchema({ name: 'UsageResponse' }) class UsageResponseDto extends ItemEnvelopeDto(KeyUsageDto) {}`.
 */
export function ItemEnvelopeDto<Item>(item: Type<Item>) {
  class ItemEnvelope {
    @ApiProperty({ type: item, isArray: true, minItems: 1, maxItems: 1 })
    data!: [Item];

    @ApiProperty({ type: RequestMetaDto })
    meta!: RequestMetaDto;
  }
  return ItemEnvelope;
}

/** The envelope of a list answered whole, `{ "data": [items], "meta": { "request_id" } }`, to extend and name. */
export function ListEnvelopeDto<Item>(item: Type<Item>) {
  class ListEnvelope {
    @ApiProperty({ type: item, isArray: true })
    data!: Item[];

    @ApiProperty({ type: RequestMetaDto })
    meta!: RequestMetaDto;
  }
  return ListEnvelope;
}
