import { Injectable } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error';
import { type Page, pageOffset } from '../common/envelope';
import type { PageQueryDto } from './dto/page-query.dto';
import type { SearchQueryDto } from './dto/search-query.dto';
import { searchQuery } from './search/search-text';
import type { Title } from './title';
import { type TitleRow, serializeTitle } from './title.serializer';
import { TitleSearchRepository } from './search/title-search.repository';
import { TitleRepository, type TypeFamily } from './title.repository';

@Injectable()
export class CatalogService {
  constructor(
    private readonly titles: TitleRepository,
    private readonly titleSearch: TitleSearchRepository,
  ) {}

  async search(query: SearchQueryDto): Promise<Page<Title>> {
    const result = await this.titleSearch.search(
      searchQuery(query.q),
      { type: query.type, year: query.year },
      { limit: query.limit, offset: pageOffset(query.page, query.limit) },
    );
    return this.toPage(result, query);
  }

  async list(family: TypeFamily, query: PageQueryDto): Promise<Page<Title>> {
    const result = await this.titles.listFamily(family, {
      limit: query.limit,
      offset: pageOffset(query.page, query.limit),
    });
    return this.toPage(result, query);
  }

  async getByImdbId(imdbId: string): Promise<Title> {
    const row = await this.titles.findByImdbId(imdbId);
    if (!row) throw new ApiError('TITLE_NOT_FOUND');
    return serializeTitle(row);
  }

  private toPage(result: { rows: TitleRow[]; total: number }, query: PageQueryDto): Page<Title> {
    return {
      items: result.rows.map(serializeTitle),
      page: query.page,
      perPage: query.limit,
      total: result.total,
    };
  }
}
