import { Controller, Get, Param } from '@nestjs/common';
import { itemEnvelope, pageEnvelope } from '../common/envelope';
import { RequestId } from '../common/request-id/request-id.decorator';
import { ValidatedQuery } from '../common/validation/validated-query.decorator';
import { CatalogService } from './catalog.service';
import { NoQueryDto } from './dto/no-query.dto';
import { PageQueryDto } from './dto/page-query.dto';
import { SearchQueryDto } from './dto/search-query.dto';
import { ImdbIdPipe } from './imdb-id.pipe';

@Controller('v1')
export class CatalogController {
  constructor(private readonly catalog: CatalogService) {}

  @Get('search')
  async search(@ValidatedQuery(SearchQueryDto) query: SearchQueryDto, @RequestId() requestId: string) {
    return pageEnvelope(await this.catalog.search(query), requestId);
  }

  @Get('titles/:imdb_id')
  async getTitle(
    @Param('imdb_id', ImdbIdPipe) imdbId: string,
    @ValidatedQuery(NoQueryDto) _query: NoQueryDto,
    @RequestId() requestId: string,
  ) {
    return itemEnvelope(await this.catalog.getByImdbId(imdbId), requestId);
  }

  @Get('movies')
  async movies(@ValidatedQuery(PageQueryDto) query: PageQueryDto, @RequestId() requestId: string) {
    return pageEnvelope(await this.catalog.list('movies', query), requestId);
  }

  @Get('series')
  async series(@ValidatedQuery(PageQueryDto) query: PageQueryDto, @RequestId() requestId: string) {
    return pageEnvelope(await this.catalog.list('series', query), requestId);
  }
}
