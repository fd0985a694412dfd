import { Injectable } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error';
import { type Page, pageOffset } from '../common/envelope';
import type { Versioned } from '../common/conditional/versioned';
import { CatalogStateProvider } from './catalog-state.provider';
import type { PageQueryDto } from './dto/page-query.dto';
import type { SearchQueryDto } from './dto/search-query.dto';
import { searchQuery } from './search/search-text';
import type { Title } from './title';
import { VersionedTitleCache } from './title-cache';
import { type Cached, VersionedCache } from './versioned-cache';
import { SearchAdmission } from './search/search-admission';
import { SEARCH_CACHE_ENTRIES, searchCacheKey } from './search/search-cache-key';
import { type TitleRow, serializeTitle } from './title.serializer';
import { TitleSearchRepository } from './search/title-search.repository';
import { TitleRepository, type TypeFamily } from './title.repository';

/** The catalog's answers, each with the catalog version its data was read from (for the ETag). */
@Injectable()
export class CatalogService {
  private readonly titleCache = new VersionedTitleCache();
  private readonly searches = new VersionedCache<Page<Title>>(SEARCH_CACHE_ENTRIES);

  constructor(
    private readonly titles: TitleRepository,
    private readonly titleSearch: TitleSearchRepository,
    private readonly state: CatalogStateProvider,
    private readonly admission: SearchAdmission,
  ) {}

  /**
   * Search spans several statements, so its version is the live one read before it starts (its
   * data is that version's or, when an ingest commits meanwhile, newer), kept only when no newer
   * reading has arrived by the end.
   */
  async search(query: SearchQueryDto): Promise<Versioned<Page<Title>>> {
    await this.admission.admit();
    const text = searchQuery(query.q);
    const key = searchCacheKey(text.key, query);
    const hit = await this.cached(this.searches, key);
    if (hit) return hit;
    const before = (await this.state.fresh()).state.catalogVersion;
    const result = await this.titleSearch.search(
      text,
      { type: query.type, year: query.year },
      { limit: query.limit, offset: pageOffset(query.page, query.limit) },
    );
    const after = this.state.last()?.state.catalogVersion;
    const version = before === after ? before : null;
    const page = this.toPage(result, query);
    this.searches.store(version, key, page);
    return { version, value: page };
  }

  async list(family: TypeFamily, query: PageQueryDto): Promise<Versioned<Page<Title>>> {
    const result = await this.titles.listFamily(family, {
      limit: query.limit,
      offset: pageOffset(query.page, query.limit),
    });
    return { version: result.version, value: this.toPage(result, query) };
  }

  /** A title from the title cache, or one statement reading the title and its version together. */
  async getByImdbId(imdbId: string): Promise<Versioned<Title>> {
    const hit = await this.cached(this.titleCache, imdbId);
    if (hit) return found(hit.version, hit.value);
    const { version, row } = await this.titles.findByImdbId(imdbId);
    const title = row ? serializeTitle(row) : null;
    this.titleCache.store(version, imdbId, title);
    return found(version, title);
  }

  /**
   * A cached answer is served only once a state read that had not finished when the request arrived
   * names the cache's version (reads are shared by concurrent requests, so under load that costs
   * no query of its own).
   */
  private async cached<V>(cache: VersionedCache<V>, key: string): Promise<Cached<V> | undefined> {
    if (!cache.has(key)) return undefined;
    cache.useVersion((await this.state.current()).state.catalogVersion);
    return cache.lookup(key);
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

function found(version: string | null, title: Title | null): Versioned<Title> {
  if (!title) throw new ApiError('TITLE_NOT_FOUND');
  return { version, value: title };
}
