import type { CatalogStateProvider } from './catalog-state.provider';
import { CatalogService } from './catalog.service';
import type { SearchAdmission } from './search/search-admission';
import type { TitleSearchRepository } from './search/title-search.repository';
import type { TitleRow } from './title.serializer';
import type { TitleRepository } from './title.repository';

const row = (imdbId: string, title: string) =>
  ({ id: 1, imdb_id: imdbId, type: 'movie', title, rating_average: 0, rating_votes: 0 }) as TitleRow;

describe('CatalogService title lookups', () => {
  let live: { version: string; titles: Map<string, string> };
  let titleQueries: number;
  let stateReads: number;
  let searchQueries: number;
  let service: CatalogService;

  beforeEach(() => {
    live = { version: 'v1', titles: new Map([['tt1', 'One']]) };
    titleQueries = 0;
    stateReads = 0;
    searchQueries = 0;
    const titles = {
      findByImdbId: async (imdbId: string) => {
        titleQueries++;
        const title = live.titles.get(imdbId);
        return { version: live.version, row: title ? row(imdbId, title) : null };
      },
    } as unknown as TitleRepository;
    const read = async () => {
      stateReads++;
      return { state: { catalogVersion: live.version }, sentAt: Date.now() };
    };
    const state = {
      fresh: read,
      current: read,
      last: () => ({ state: { catalogVersion: live.version }, sentAt: Date.now() }),
    } as unknown as CatalogStateProvider;
    const search = {
      search: async (query: { key: string }) => {
        searchQueries++;
        const matches = [...live.titles].filter(([, title]) => title.toLowerCase().includes(query.key));
        return { rows: matches.map(([imdbId, title]) => row(imdbId, title)), total: matches.length };
      },
    } as unknown as TitleSearchRepository;
    service = new CatalogService(titles, search, state, {
      admit: () => undefined,
    } as unknown as SearchAdmission);
  });

  it('keeps a title read twice, then serves it while the state read names the same version', async () => {
    expect(await service.getByImdbId('tt1')).toMatchObject({ version: 'v1', value: { title: 'One' } });
    expect(await service.getByImdbId('tt1')).toMatchObject({ version: 'v1', value: { title: 'One' } });
    expect([titleQueries, stateReads]).toEqual([2, 0]);
    expect(await service.getByImdbId('tt1')).toMatchObject({ version: 'v1', value: { title: 'One' } });
    expect([titleQueries, stateReads]).toEqual([2, 1]);
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
    expect(await service.getByImdbId('tt1')).toMatchObject({
      version: 'v2',
      value: { title: 'One, remastered' },
    });
    expect(titleQueries).toBe(3);
    await service.getByImdbId('tt1');
    await service.getByImdbId('tt1');
    expect(titleQueries).toBe(4);
  });

  describe('searches', () => {
    const ask = (q: string, page = 1) => service.search({ q, page, limit: 20 });

    it('keeps an answer on its first ask and serves the same tokens, filters and page from it', async () => {
      const first = await ask('one');
      expect(first).toMatchObject({ version: 'v1', value: { total: 1, items: [{ title: 'One' }] } });
      expect(await ask('  ONE!')).toEqual(first);
      expect(searchQueries).toBe(1);
      await ask('one', 2);
      expect(searchQueries).toBe(2);
    });

    it('asks the database again once the live version has changed', async () => {
      await ask('one');
      live = { version: 'v2', titles: new Map([['tt1', 'One, remastered']]) };
      expect(await ask('one')).toMatchObject({
        version: 'v2',
        value: { items: [{ title: 'One, remastered' }] },
      });
      expect(searchQueries).toBe(2);
    });
  });
});
