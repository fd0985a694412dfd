import { ApiPropertyOptional } from '@nestjs/swagger';
import { IntegerQueryParam } from '../../src/route-kit';

export const MAX_MIN_TITLES = 1_000_000;

/** `min_titles`: only genres carried by at least this many titles. */
export class GenresQueryDto {
  @IntegerQueryParam('min_titles', 1, MAX_MIN_TITLES)
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_MIN_TITLES, default: 1 })
  min_titles: number = 1;
}
