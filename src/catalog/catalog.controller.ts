import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import { TITLE_PAGE_LINKS } from '../openapi/api-responses.decorator';
import { MOVIE_EXAMPLE, SERIES_EXAMPLE, TITLE_ITEM_EXAMPLE, titlePageExample } from '../openapi/examples';
import { TITLE_LOOKUP_OPERATION_ID } from '../openapi/operation-ids';
import { Conditional, type ConditionalReply, Metered, NoQueryDto, ValidatedQuery } from '../route-kit';
import { CatalogService } from './catalog.service';
import { PageQueryDto } from './dto/page-query.dto';
import { SearchQueryDto } from './dto/search-query.dto';
import { TitleItemDto, TitlePageDto } from './dto/title-envelope.dto';
import { ImdbIdParam } from './imdb-id.param';
import { IMDB_ID_PATTERN } from './title';

@Controller('v1')
@ApiTags('catalog')
@Metered()
export class CatalogController {
  constructor(private readonly catalog: CatalogService) {}

  @Get('search')
  @ApiOperation({
    summary: 'Full-text search by title, ordered by relevance, then votes, then id',
    description:
      'Titles whose title or original_title hold every token of q (whole words, case and accents ' +
      'folded), optionally of one type and start year, a page at a time. Each title links to its ' +
      'lookup by imdb_id.',
  })
  @ApiQuery({ type: SearchQueryDto })
  @Metered.ok(TitlePageDto, 'A page of matching titles', {
    conditional: true,
    links: TITLE_PAGE_LINKS,
    example: titlePageExample([MOVIE_EXAMPLE], 1),
  })
  async search(
    @ValidatedQuery(SearchQueryDto) query: SearchQueryDto,
    @Conditional() reply: ConditionalReply,
  ) {
    return reply.envelope(await this.catalog.search(query));
  }

  @Get('titles/:imdb_id')
  @ApiOperation({
    operationId: TITLE_LOOKUP_OPERATION_ID,
    summary: 'One title by its IMDb identifier; takes no query parameters',
    description:
      'The title whose imdb_id is exactly this one (tt0123 and tt123 differ), as the only item of ' +
      'data; 404 TITLE_NOT_FOUND when the catalog has none.',
  })
  @ApiParam({
    name: 'imdb_id',
    // In the schema: beside a schema, @nestjs/swagger drops a parameter's example (toOpenApi31 lifts it).
    schema: { type: 'string', pattern: IMDB_ID_PATTERN.source, example: MOVIE_EXAMPLE.imdb_id },
  })
  @Metered.ok(TitleItemDto, 'The title, as the only item of data', {
    conditional: true,
    example: TITLE_ITEM_EXAMPLE,
  })
  @Metered.errors('TITLE_NOT_FOUND')
  async getTitle(
    @ImdbIdParam() imdbId: string,
    @ValidatedQuery(NoQueryDto) _query: NoQueryDto,
    @Conditional() reply: ConditionalReply,
  ) {
    return reply.envelope(await this.catalog.getByImdbId(imdbId));
  }

  @Get('movies')
  @ApiOperation({
    summary: 'Titles of type movie or tv_movie, ordered by votes, then id',
    description: 'Every movie and TV movie of the catalog, most voted first, a page at a time.',
  })
  @ApiQuery({ type: PageQueryDto })
  @Metered.ok(TitlePageDto, 'A page of movies', {
    conditional: true,
    links: TITLE_PAGE_LINKS,
    example: titlePageExample([MOVIE_EXAMPLE], 61234),
  })
  async movies(@ValidatedQuery(PageQueryDto) query: PageQueryDto, @Conditional() reply: ConditionalReply) {
    return reply.envelope(await this.catalog.list('movies', query));
  }

  @Get('series')
  @ApiOperation({
    summary: 'Titles of type tv_series, tv_mini_series or tv_special, ordered by votes, then id',
    description:
      'Every series, mini-series and TV special of the catalog, most voted first, a page at a time.',
  })
  @ApiQuery({ type: PageQueryDto })
  @Metered.ok(TitlePageDto, 'A page of series', {
    conditional: true,
    links: TITLE_PAGE_LINKS,
    example: titlePageExample([SERIES_EXAMPLE], 18377),
  })
  async series(@ValidatedQuery(PageQueryDto) query: PageQueryDto, @Conditional() reply: ConditionalReply) {
    return reply.envelope(await this.catalog.list('series', query));
  }
}
