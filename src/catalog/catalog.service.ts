import { Injectable } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error';
import { type PageJson, jsonArrayBytes, pageSlice } from '../common/envelope';
import type { Versioned } from '../common/conditional/versioned';
import { CatalogCaches, type PageItems, listCacheKey } from './catalog-caches';
import { CatalogStateProvider } from './catalog-state.provider';
import type { PageQueryDto } from './dto/page-query.dto';
import type { SearchQueryDto } from './dto/search-query.dto';
import type { SearchQuery } from './search/search-text';
import type { Cached, VersionedCache } from './versioned-cache';
import { SearchAdmission } from './search/search-admission';
import { searchCacheKey } from './search/search-cache-key';
import type { TitleRow } from './title-columns';
import { serializeTitleJson } from './title.serializer';
import { SingleFlight } from './single-flight';
import { TitleSearchRepository } from './search/title-search.repository';
import { TitleRepository, type TypeFamily } from './title.repository';

/**
 * The catalog's answers as JSON text, each with the catalog version its data was read from (for the
 * ETag). Titles, search pages and list pages are kept per catalog version (`CatalogCaches`); a title
 * is serialized once per version and its text reused by every answer that holds it. Requests that
 * miss the same answer at the same time share one read.
 */
@Injectable()
export class CatalogService {
  /** Concurrent misses of one answer share one read (`SingleFlight`). */
  private readonly titleReads = new SingleFlight<{ version: string | null; title: string | null }>();
  private readonly searchReads = new SingleFlight<Versioned<PageJson>>();
  private readonly listReads = new SingleFlight<Versioned<PageJson>>();

  constructor(
    private readonly titles: TitleRepository,
    private readonly titleSearch: TitleSearchRepository,
    private readonly state: CatalogStateProvider,
    private readonly admission: SearchAdmission,
    private readonly caches: CatalogCaches,
  ) {}

  /**
   * A search page: from the search cache, or read once `SearchAdmission` lets the search start (it
   * may refuse it instead). A cached answer costs the search database nothing, so it is not admitted.
   */
  async search(query: SearchQueryDto): Promise<Versioned<PageJson>> {
    const text = query.search;
    const key = searchCacheKey(text.key, query);
    const hit = await this.cached(this.caches.searches, key);
    if (hit) return { version: hit.version, value: { ...hit.value, page: query.page, perPage: query.limit } };
    return this.searchReads.run(key, async () => {
      const done = await this.admission.admit();
      try {
        return await this.readSearch(text, key, query);
      } finally {
        done();
      }
    });
  }

  /**
   * Each search statement reads the catalog version with its data (`TitleSearchRepository`): the
   * answer is kept and tagged under that version, or under none when its statements saw different
   * catalogs (an ingest committed between them).
   */
  private async readSearch(
    text: SearchQuery,
    key: string,
    query: SearchQueryDto,
  ): Promise<Versioned<PageJson>> {
    const result = await this.titleSearch.search(
      text,
      { type: query.type, year: query.year },
      pageSlice(query.page, query.limit),
    );
    return {
      version: result.version,
      value: this.page(this.caches.searches, result.version, key, result, query),
    };
  }

  /** A list page from the list cache, or one statement reading the page and its version together. */
  async list(family: TypeFamily, query: PageQueryDto): Promise<Versioned<PageJson>> {
    const key = listCacheKey(family, query.page, query.limit);
    const hit = await this.cached(this.caches.lists, key);
    if (hit) return { version: hit.version, value: { ...hit.value, page: query.page, perPage: query.limit } };
    return this.listReads.run(key, async () => {
      const result = await this.titles.listFamily(family, pageSlice(query.page, query.limit));
      return {
        version: result.version,
        value: this.page(this.caches.lists, result.version, key, result, query),
      };
    });
  }

  /** A title's JSON text from the title cache, or one statement reading the title and its version together. */
  async getByImdbId(imdbId: string): Promise<Versioned<string>> {
    const hit = await this.cached(this.caches.titles, imdbId);
    if (hit) return found(hit.version, hit.value);
    const { version, title } = await this.titleReads.run(imdbId, async () => {
      const read = await this.titles.findByImdbId(imdbId);
      const json = read.row ? serializeTitleJson(read.row) : null;
      this.caches.titles.store(read.version, imdbId, json);
      return { version: read.version, title: json };
    });
    return found(version, title);
  }

  /**
   * A cached answer is served only while the newest state reading (at most CATALOG_STATE_MAX_AGE_MS
   * old, read on a timer: no query of the request's own) names the cache's version; a reading of
   * another version empties the cache first.
   */
  private async cached<V>(cache: VersionedCache<V>, key: string): Promise<Cached<V> | undefined> {
    this.state.noteDemand();
    if (!cache.has(key)) return undefined;
    cache.useVersion((await this.state.current()).state.catalogVersion);
    return cache.lookup(key);
  }

  /** A page read under `version`, kept in `cache`; its titles' text taken from the title cache where it holds them. */
  private page(
    cache: VersionedCache<PageItems>,
    version: string | null,
    key: string,
    result: { rows: TitleRow[]; total: number },
    query: PageQueryDto,
  ): PageJson {
    const items: PageItems = {
      items: jsonArrayBytes(
        result.rows.map((row) => this.caches.titles.peek(version, row.imdb_id) ?? serializeTitleJson(row)),
      ),
      total: result.total,
    };
    cache.store(version, key, items);
    return { ...items, page: query.page, perPage: query.limit };
  }
}

function found(version: string | null, title: string | null): Versioned<string> {
  if (title === null) throw new ApiError('TITLE_NOT_FOUND');
  return { version, value: title };
}
