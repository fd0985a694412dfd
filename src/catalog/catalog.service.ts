import { Injectable } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error';
import { EnvelopeBytes, pageMeta, pageSlice } from '../common/envelope';
import type { Versioned } from '../common/conditional/versioned';
import { CatalogCaches, listCacheKey } from './catalog-caches';
import { CatalogStateProvider } from './catalog-state.provider';
import type { PageQueryDto } from './dto/page-query.dto';
import type { SearchQueryDto } from './dto/search-query.dto';
import type { SearchQuery } from './search/search-text';
import type { Cached, VersionedCache } from '../common/cache/versioned-cache';
import { SearchAdmission } from './search/search-admission';
import { searchCacheKey } from './search/search-cache-key';
import type { TitleRow } from './title-columns';
import { serializeTitleJson } from './title.serializer';
import { TitleSearchRepository } from './search/title-search.repository';
import { TitleRepository, type TypeFamily } from './title.repository';

/**
 * The catalog's answers as envelopes of UTF-8 bytes with their load's version (label and load number,
 * for the ETag), cached per load (`CatalogCaches`); concurrent misses of one answer share one read.
 */
@Injectable()
export class CatalogService {
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
  async search(query: SearchQueryDto): Promise<Versioned<EnvelopeBytes>> {
    const key = searchCacheKey(query.search.key, query);
    return (
      (await this.cached(this.caches.searches, key)) ??
      (await this.readMissing(this.caches.searches, key, async () => {
        const done = await this.admission.admit();
        try {
          return await this.readSearch(query.search, query);
        } finally {
          done();
        }
      }))
    );
  }

  /**
   * Each search statement reads the catalog version with its data: the answer is kept under it, or under
   * none when its statements saw different catalogs (an ingest between them).
   */
  private async readSearch(text: SearchQuery, query: SearchQueryDto): Promise<Versioned<EnvelopeBytes>> {
    const result = await this.titleSearch.search(
      text,
      { type: query.type, year: query.year },
      pageSlice(query.page, query.limit),
    );
    return { version: result.version, value: this.page(result.version, result, query) };
  }

  /** A list page from the list cache, or one statement reading the page and its version together. */
  async list(family: TypeFamily, query: PageQueryDto): Promise<Versioned<EnvelopeBytes>> {
    const key = listCacheKey(family, query.page, query.limit);
    return (
      (await this.cached(this.caches.lists, key)) ??
      (await this.readMissing(this.caches.lists, key, async () => {
        const result = await this.titles.listFamily(family, pageSlice(query.page, query.limit));
        return { version: result.version, value: this.page(result.version, result, query) };
      }))
    );
  }

  /** A title's envelope from the title cache, or one statement reading the title and its version together. */
  async getByImdbId(imdbId: string): Promise<Versioned<EnvelopeBytes>> {
    const { version, value } =
      (await this.cached(this.caches.titles, imdbId)) ??
      (await this.readMissing(this.caches.titles, imdbId, async () => {
        const read = await this.titles.findByImdbId(imdbId);
        return {
          version: read.version,
          value: read.row ? EnvelopeBytes.item(serializeTitleJson(read.row)) : null,
        };
      }));
    if (value === null) throw new ApiError('TITLE_NOT_FOUND');
    return { version, value };
  }

  /**
   * Serves from `cache` only while the newest state reading (on a timer, no query of the request's own)
   * names its version; another version empties the cache first. A miss goes to `readMissing`.
   */
  private async cached<V>(cache: VersionedCache<V>, key: string): Promise<Cached<V> | undefined> {
    this.state.noteDemand();
    if (!cache.has(key)) {
      cache.noteMiss();
      return undefined;
    }
    const reading = this.state.trusted() ?? (await this.state.current());
    cache.useVersion(reading.state.loadVersion);
    return cache.lookup(key);
  }

  /**
   * After a re-ingest a cache moves to the version a read found once the state reading names it live, so
   * new answers are kept from the first read; a read of any other version changes nothing.
   */
  private readMissing<V>(
    cache: VersionedCache<V>,
    key: string,
    read: () => Promise<Versioned<V>>,
  ): Promise<Versioned<V>> {
    return cache.readMissing(key, async () => {
      const found = await read();
      if (found.version !== null && cache.size > 0 && found.version !== cache.heldVersion) {
        const live = await this.state.current().then(
          (reading) => reading.state.loadVersion,
          () => undefined,
        );
        if (live === found.version) cache.useVersion(live);
      }
      return found;
    });
  }

  /** A page's envelope read under `version`, each title's bytes taken from the title cache where it holds them. */
  private page(
    version: string | null,
    result: { rows: TitleRow[]; total: number },
    query: { page: number; limit: number },
  ): EnvelopeBytes {
    return EnvelopeBytes.page(
      result.rows.map((row) => this.caches.titles.peek(version, row.imdb_id) ?? serializeTitleJson(row)),
      pageMeta({ page: query.page, perPage: query.limit, total: result.total }),
    );
  }
}
