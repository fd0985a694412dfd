import { ApiPropertyOptional } from '@nestjs/swagger';
import { MAX_PAGE, MAX_PER_PAGE } from '../../common/envelope';
import { IntegerQueryParam } from '../../common/validation/query-decorators';

/** `page` and `limit`, shared by search, movies and series. */
export class PageQueryDto {
  @IntegerQueryParam('page', 1, MAX_PAGE)
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: MAX_PAGE,
    default: 1,
    description: 'One-based page number; a page past the end answers 200 with data: []',
    example: 1,
  })
  page: number = 1;

  @IntegerQueryParam('limit', 1, MAX_PER_PAGE)
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: MAX_PER_PAGE,
    default: MAX_PER_PAGE,
    description: 'Results per page',
    example: 10,
  })
  limit: number = MAX_PER_PAGE;
}
