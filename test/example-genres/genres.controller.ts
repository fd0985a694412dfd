import { Controller, Get } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiQuery } from '@nestjs/swagger';
import { Conditional, type ConditionalReply } from '../../src/common/conditional/conditional-reply';
import { RequestId } from '../../src/common/request-id/request-id.decorator';
import { ValidatedQuery } from '../../src/common/validation/validated-query.decorator';
import {
  ApiErrorResponses,
  ApiOkEnvelope,
  ApiRequestIdHeader,
  METERED_ROUTE_ERRORS,
} from '../../src/openapi/api-responses.decorator';
import { ApiTag } from '../../src/openapi/api-tag.decorator';
import { BEARER_SCHEME } from '../../src/openapi/openapi-document';
import { GenreCountsDto } from './genre-count.dto';
import { GenreCountRepository } from './genre-count.repository';
import { GenresQueryDto } from './genres-query.dto';

/**
 * A protected read route as docs/extending.md describes it. Nothing here touches the access path:
 * the global guards (API key, then the limits) run before it because it is not @Public(), the global
 * filter writes its errors, and the middleware gives it request ids, the access log and metrics.
 */
@Controller('v1')
@ApiTag('genres', 'Genres of the catalog and their title counts (API key required)')
@ApiBearerAuth(BEARER_SCHEME)
@ApiRequestIdHeader()
@ApiErrorResponses('metered', ...METERED_ROUTE_ERRORS)
export class GenresController {
  constructor(private readonly genres: GenreCountRepository) {}

  @Get('genres')
  @ApiOperation({
    summary: 'Genres and how many titles carry each, most titles first',
    description:
      'Every genre of the live catalog with its number of titles; min_titles leaves out rarer ones.',
  })
  @ApiQuery({ type: GenresQueryDto })
  @ApiOkEnvelope(GenreCountsDto, 'metered', 'Every genre with its title count', { conditional: true })
  async list(
    @ValidatedQuery(GenresQueryDto) query: GenresQueryDto,
    @RequestId() requestId: string,
    @Conditional() reply: ConditionalReply,
  ) {
    return reply.json(await this.genres.count(query.min_titles), (counts) =>
      JSON.stringify({ data: counts, meta: { request_id: requestId } }),
    );
  }
}
