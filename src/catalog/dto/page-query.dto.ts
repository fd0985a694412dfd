import { IntegerQueryParam } from '../../common/validation/query-decorators';

export const MAX_PAGE = 1_000_000;
export const MAX_PER_PAGE = 20;

/** `page` and `limit`, shared by search, movies and series. */
export class PageQueryDto {
  @IntegerQueryParam('page', 1, MAX_PAGE)
  page: number = 1;

  @IntegerQueryParam('limit', 1, MAX_PER_PAGE)
  limit: number = MAX_PER_PAGE;
}
