import { startupMessages } from './startup-report';

describe('startupMessages', () => {
  const facts = {
    url: 'http://0.0.0.0:3000',
    database: 'postgres://db:5432/catalog',
    embedded: false,
    catalogVersion: '2026-11-21',
    titleCount: 1_301_878,
    keyCount: 3,
  };

  it('says where it listens, on which database and which catalog, and nothing else when all is set', () => {
    expect(startupMessages(facts)).toEqual({
      info: 'Listening on http://0.0.0.0:3000; database postgres://db:5432/catalog; catalog 2026-11-21 (1301878 titles)',
      warnings: [],
    });
  });

  it('points out an empty catalog and a database without keys with the exact commands', () => {
    const { info, warnings } = startupMessages({
      ...facts,
      catalogVersion: null,
      titleCount: 0,
      keyCount: 0,
    });
    expect(info).toMatch(/; no catalog$/);
    expect(warnings).toEqual([
      expect.stringMatching(
        /^The catalog is empty; load one with: node dist\/cli\.js catalog:ingest --basics /,
      ),
      expect.stringMatching(
        /^No API key exists yet; create one with: node dist\/cli\.js keys:create --name /,
      ),
    ]);
    expect(warnings.every((warning) => warning.endsWith('(with the same DATABASE_URL)'))).toBe(true);
  });

  it('tells embedded users to stop the server before the CLI', () => {
    const { warnings } = startupMessages({ ...facts, embedded: true, keyCount: 0 });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('stop the server first');
  });
});
