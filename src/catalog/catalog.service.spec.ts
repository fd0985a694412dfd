import type { Versioned } from '../common/conditional/versioned';
import { EnvelopeBytes } from '../common/envelope';
import { CatalogCaches } from './catalog-caches';
import type { CatalogStateProvider } from './catalog-state.provider';
import { CatalogService } from './catalog.service';
import type { SearchAdmission } from './search/search-admission';
import { searchQuery } from './search/search-text';
import type { TitleSearchRepository } from './search/title-search.repository';
import type { TitleRow } from './title-columns';
import type { TitleRepository } from './title.repository';

const row = (imdbId: string, title: string) =>
  ({ id: 1, imdb_id: imdbId, type: 'movie', title, rating_average: 0, rating_votes: 0 }) as TitleRow;

type Envelope = { data: Array<Record<string, unknown>>; meta: Record<string, unknown> };

/** An envelope's JSON, parsed, with a request id written in. */
const parse = (envelope: EnvelopeBytes): Envelope =>
  JSON.parse(Buffer.from(envelope.withRequestId('r').bytes, 'latin1').toString('utf8'));

/** A title answer: its one item, parsed. */
const title = async (answer: Promise<Versioned<EnvelopeBytes>>) => {
  const { version, value } = await answer;
  const { data, meta } = parse(value);
  expect(meta).toEqual({ request_id: 'r' });
  return { version, value: data[0] };
};

/** A page answer: its items and page fields, parsed. */
const page = async (answer: Promise<Versioned<EnvelopeBytes>>) => {
  const { version, value } = await answer;
  const { data, meta } = parse(value);
  return {
    version,
    value: { items: data, page: meta.page, perPage: meta.per_page, total: meta.total_results },
  };
};

describe('CatalogService title lookups', () => {
  let live: { version: string; titles: Map<string, string> };
  let titleQueries: number;
  let stateReads: number;
  let searchQueries: number;
  let listQueries: number;
  let admitted: number;
  /** What the search statements report having read; `undefined`: the live version. */
  let searchVersion: string | null | undefined;
  /** What the state provider answers without a read (`trusted()`); none: every hit waits for a read. */
  let trustedReading: { state: { catalogVersion: string; loadVersion: string }; sentAt: number } | undefined;
  let caches: CatalogCaches;
  let service: CatalogService;

  beforeEach(() => {
    live = { version: 'v1', titles: new Map([['tt1', 'One']]) };
    trustedReading = undefined;
    titleQueries = 0;
    stateReads = 0;
    searchQueries = 0;
    listQueries = 0;
    admitted = 0;
    searchVersion = undefined;
    const titles = {
      listFamily: async (_family: string, slice: { limit: number; offset: number }) => {
        listQueries++;
        const rows = [...live.titles].map(([imdbId, name]) => row(imdbId, name));
        return {
          version: live.version,
          rows: rows.slice(slice.offset, slice.offset + slice.limit),
          total: rows.length,
        };
      },
      findByImdbId: async (imdbId: string) => {
        titleQueries++;
        const title = live.titles.get(imdbId);
        return { version: live.version, row: title ? row(imdbId, title) : null };
      },
    } as unknown as TitleRepository;
    const read = async () => {
      stateReads++;
      return { state: { catalogVersion: live.version, loadVersion: live.version }, sentAt: Date.now() };
    };
    const state = {
      current: read,
      trusted: () => trustedReading,
      noteDemand: () => undefined,
    } as unknown as CatalogStateProvider;
    const search = {
      search: async (query: { key: string }) => {
        searchQueries++;
        const matches = [...live.titles].filter(([, title]) => title.toLowerCase().includes(query.key));
        return {
          rows: matches.map(([imdbId, title]) => row(imdbId, title)),
          total: matches.length,
          version: searchVersion === undefined ? live.version : searchVersion,
        };
      },
    } as unknown as TitleSearchRepository;
    caches = new CatalogCaches({ cacheBudgetBytes: 1024 * 1024 });
    service = new CatalogService(
      titles,
      search,
      state,
      {
        admit: () => {
          admitted++;
          return () => undefined;
        },
      } as unknown as SearchAdmission,
      caches,
    );
  });

  it('keeps a title read twice, then serves it while the state read names the same version', async () => {
    expect(await title(service.getByImdbId('tt1'))).toMatchObject({ version: 'v1', value: { title: 'One' } });
    expect(await title(service.getByImdbId('tt1'))).toMatchObject({ version: 'v1', value: { title: 'One' } });
    expect([titleQueries, stateReads]).toEqual([2, 0]);
    expect(await title(service.getByImdbId('tt1'))).toMatchObject({ version: 'v1', value: { title: 'One' } });
    expect([titleQueries, stateReads]).toEqual([2, 1]);
  });

  it("serves a kept title on the provider's trusted reading without waiting for a read, and not past it", async () => {
    await service.getByImdbId('tt1');
    await service.getByImdbId('tt1');
    trustedReading = { state: { catalogVersion: 'v1', loadVersion: 'v1' }, sentAt: Date.now() };
    expect(await title(service.getByImdbId('tt1'))).toMatchObject({ version: 'v1', value: { title: 'One' } });
    expect([titleQueries, stateReads]).toEqual([2, 0]);
    // A newer trusted reading names another version: the cache moves to it and the title is read again.
    live = { version: 'v2', titles: new Map([['tt1', 'One, remastered']]) };
    trustedReading = { state: { catalogVersion: 'v2', loadVersion: 'v2' }, sentAt: Date.now() };
    expect(await title(service.getByImdbId('tt1'))).toMatchObject({
      version: 'v2',
      value: { title: 'One, remastered' },
    });
    expect(titleQueries).toBe(3);
  });

  it('remembers an unknown id as not found', async () => {
    for (let i = 0; i < 3; i++)
      await expect(service.getByImdbId('tt9')).rejects.toMatchObject({ code: 'TITLE_NOT_FOUND' });
    expect(titleQueries).toBe(2);
  });

  it('reads again, and answers with the new version, once the live version has changed', async () => {
    await service.getByImdbId('tt1');
    await service.getByImdbId('tt1');
    live = { version: 'v2', titles: new Map([['tt1', 'One, remastered']]) };
    expect(await title(service.getByImdbId('tt1'))).toMatchObject({
      version: 'v2',
      value: { title: 'One, remastered' },
    });
    expect(titleQueries).toBe(3);
    await service.getByImdbId('tt1');
    await service.getByImdbId('tt1');
    expect(titleQueries).toBe(4);
  });

  it('answers concurrent misses of one title, search or list page with one read (and one search admission)', async () => {
    const titlesAsked = await Promise.all([1, 2, 3].map(() => title(service.getByImdbId('tt1'))));
    expect(titlesAsked.map((answer) => answer.value.title)).toEqual(['One', 'One', 'One']);
    const searchesAsked = await Promise.all(
      [1, 2, 3].map(() => page(service.search({ q: 'one', search: searchQuery('one'), page: 1, limit: 20 }))),
    );
    expect(searchesAsked.map((answer) => answer.value.items.length)).toEqual([1, 1, 1]);
    const listsAsked = await Promise.all(
      [1, 2, 3].map(() => page(service.list('movies', { page: 1, limit: 20 }))),
    );
    expect(listsAsked.map((answer) => answer.value.total)).toEqual([1, 1, 1]);
    expect([titleQueries, searchQueries, admitted, listQueries]).toEqual([1, 1, 1, 1]);
  });

  it('after a new catalog, keeps answers of keys never asked before from their first reads', async () => {
    await service.getByImdbId('tt1');
    await service.getByImdbId('tt1');
    await service.search({ q: 'one', search: searchQuery('one'), page: 1, limit: 20 });
    await service.list('movies', { page: 1, limit: 1 });
    await service.list('movies', { page: 1, limit: 1 });
    live = {
      version: 'v2',
      titles: new Map([
        ['tt2', 'Two'],
        ['tt3', 'Three'],
      ]),
    };
    const [titlesBefore, searchesBefore, listsBefore] = [titleQueries, searchQueries, listQueries];
    // Every key below is new: no hit on an old key moves the caches to the new catalog.
    for (let i = 0; i < 3; i++) {
      expect(await title(service.getByImdbId('tt2'))).toMatchObject({
        version: 'v2',
        value: { title: 'Two' },
      });
      expect(
        (await service.search({ q: 'three', search: searchQuery('three'), page: 1, limit: 20 })).version,
      ).toBe('v2');
      expect((await service.list('series', { page: 2, limit: 1 })).version).toBe('v2');
    }
    // Titles and list pages are kept on their second read, searches on their first.
    expect(titleQueries - titlesBefore).toBe(2);
    expect(searchQueries - searchesBefore).toBe(1);
    expect(listQueries - listsBefore).toBe(2);
  });

  it('keeps nothing a read found in a catalog other than the live one', async () => {
    await service.search({ q: 'one', search: searchQuery('one'), page: 1, limit: 20 });
    live = { version: 'v2', titles: new Map([['tt1', 'One, remastered']]) };
    // A slow read that began before the new catalog was live answers with the old one.
    searchVersion = 'v1';
    const ask = () => service.search({ q: 'one', search: searchQuery('one'), page: 2, limit: 20 });
    expect((await ask()).version).toBe('v1');
    expect((await ask()).version).toBe('v1');
    expect(searchQueries).toBe(3);
  });

  describe('searches', () => {
    const ask = (q: string, page = 1) => service.search({ q, search: searchQuery(q), page, limit: 20 });

    it('keeps an answer on its first ask and serves the same tokens, filters and page from it', async () => {
      const first = await ask('one');
      expect(await page(Promise.resolve(first))).toMatchObject({
        version: 'v1',
        value: { total: 1, page: 1, perPage: 20, items: [{ title: 'One' }] },
      });
      expect(await ask('  ONE!')).toEqual(first);
      // Only the search that read the database went through admission.
      expect(admitted).toBe(1);
      expect(searchQueries).toBe(1);
      await ask('one', 2);
      expect(searchQueries).toBe(2);
      // The version came with the search's own statements: no state read of its own.
      expect(stateReads).toBe(1);
    });

    it('keeps and tags no answer whose statements saw different catalogs', async () => {
      searchVersion = null;
      const first = await ask('one');
      expect(first.version).toBeNull();
      await ask('one');
      expect(admitted).toBe(2);
    });

    it('asks the database again once the live version has changed', async () => {
      await ask('one');
      live = { version: 'v2', titles: new Map([['tt1', 'One, remastered']]) };
      expect(await page(ask('one'))).toMatchObject({
        version: 'v2',
        value: { items: [{ title: 'One, remastered' }] },
      });
      expect(searchQueries).toBe(2);
    });
  });

  describe('list pages', () => {
    beforeEach(() => {
      live.titles = new Map([
        ['tt1', 'One'],
        ['tt2', 'Two'],
        ['tt3', 'Three'],
      ]);
    });
    const list = (pageNumber: number, limit = 2) => service.list('movies', { page: pageNumber, limit });

    it('keeps a page on its second ask, then serves it with the page and limit asked', async () => {
      await list(1);
      const second = await list(1);
      expect(listQueries).toBe(2);
      expect(await list(1)).toEqual(second);
      expect(listQueries).toBe(2);
      expect(await page(Promise.resolve(second))).toEqual({
        version: 'v1',
        value: {
          page: 1,
          perPage: 2,
          total: 3,
          items: [{ title: 'One' }, { title: 'Two' }].map(expect.objectContaining),
        },
      });
      expect((await page(list(2))).value.items.map((item) => item.imdb_id)).toEqual(['tt3']);
    });

    it("writes a title the title cache holds for the page's version with the title cache's bytes", async () => {
      const marker = EnvelopeBytes.item('{"cached":"tt2"}');
      caches.titles.store('v1', 'tt2', marker);
      caches.titles.store('v1', 'tt2', marker);
      expect((await page(list(1))).value.items).toEqual([
        expect.objectContaining({ imdb_id: 'tt1', title: 'One' }),
        { cached: 'tt2' },
      ]);
    });

    it('reads again once the live version has changed', async () => {
      await list(1);
      await list(1);
      live = { version: 'v2', titles: new Map([['tt1', 'One, remastered']]) };
      expect(await page(list(1))).toMatchObject({
        version: 'v2',
        value: { total: 1, items: [{ title: 'One, remastered' }] },
      });
      expect(listQueries).toBe(3);
    });
  });
});
