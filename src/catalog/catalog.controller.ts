import { Controller, Get, Param } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import { Conditional, type ConditionalReply } from '../common/conditional/conditional-reply';
import { itemEnvelopeJson, pageEnvelopeJson } from '../common/envelope';
import { RequestId } from '../common/request-id/request-id.decorator';
import { ValidatedQuery } from '../common/validation/validated-query.decorator';
import { CatalogService } from './catalog.service';
import { NoQueryDto } from '../common/validation/no-query.dto';
import { PageQueryDto } from './dto/page-query.dto';
import { SearchQueryDto } from './dto/search-query.dto';
import { ApiErrorResponses, ApiOkEnvelope, METERED_ROUTE_ERRORS } from '../openapi/api-responses.decorator';
import { BEARER_SCHEME } from '../openapi/openapi-document';
import { TitleItemDto, TitlePageDto } from './dto/title-envelope.dto';
import { ImdbIdPipe } from './imdb-id.pipe';
import { IMDB_ID_PATTERN } from './title';

@Controller('v1')
@ApiTags('catalog')
@ApiBearerAuth(BEARER_SCHEME)
@ApiErrorResponses('metered', ...METERED_ROUTE_ERRORS)
export class CatalogController {
  constructor(private readonly catalog: CatalogService) {}

  @Get('search')
  @ApiOperation({ summary: 'Full-text search by title, ordered by relevance, then votes, then id' })
  @ApiQuery({ type: SearchQueryDto })
  @ApiOkEnvelope(TitlePageDto, 'metered', 'A page of matching titles', { conditional: true })
  async search(
    @ValidatedQuery(SearchQueryDto) query: SearchQueryDto,
    @RequestId() requestId: string,
    @Conditional() reply: ConditionalReply,
  ) {
    return reply.json(await this.catalog.search(query), (page) => pageEnvelopeJson(page, requestId));
  }

  @Get('titles/:imdb_id')
  @ApiOperation({ summary: 'One title by its IMDb identifier; takes no query parameters' })
  @ApiParam({
    name: 'imdb_id',
    schema: { type: 'string', pattern: IMDB_ID_PATTERN.source },
    example: 'tt0111161',
  })
  @ApiOkEnvelope(TitleItemDto, 'metered', 'The title, as the only item of data', { conditional: true })
  @ApiErrorResponses('metered', 'TITLE_NOT_FOUND')
  async getTitle(
    @Param('imdb_id', ImdbIdPipe) imdbId: string,
    @ValidatedQuery(NoQueryDto) _query: NoQueryDto,
    @RequestId() requestId: string,
    @Conditional() reply: ConditionalReply,
  ) {
    return reply.json(await this.catalog.getByImdbId(imdbId), (title) => itemEnvelopeJson(title, requestId));
  }

  @Get('movies')
  @ApiOperation({ summary: 'Titles of type movie or tv_movie, ordered by votes, then id' })
  @ApiQuery({ type: PageQueryDto })
  @ApiOkEnvelope(TitlePageDto, 'metered', 'A page of movies', { conditional: true })
  async movies(
    @ValidatedQuery(PageQueryDto) query: PageQueryDto,
    @RequestId() requestId: string,
    @Conditional() reply: ConditionalReply,
  ) {
    return reply.json(await this.catalog.list('movies', query), (page) => pageEnvelopeJson(page, requestId));
  }

  @Get('series')
  @ApiOperation({
    summary: 'Titles of type tv_series, tv_mini_series or tv_special, ordered by votes, then id',
  })
  @ApiQuery({ type: PageQueryDto })
  @ApiOkEnvelope(TitlePageDto, 'metered', 'A page of series', { conditional: true })
  async series(
    @ValidatedQuery(PageQueryDto) query: PageQueryDto,
    @RequestId() requestId: string,
    @Conditional() reply: ConditionalReply,
  ) {
    return reply.json(await this.catalog.list('series', query), (page) => pageEnvelopeJson(page, requestId));
  }
}
