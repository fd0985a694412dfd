import { PGlite } from '@electric-sql/pglite';
import { EMBEDDED_SHARED_BUFFERS, embeddedEngineOptions } from './embedded-engine-options';

describe('embeddedEngineOptions', () => {
  it('starts PGlite with its own start parameters plus the smaller shared buffers', async () => {
    const db = await PGlite.create(embeddedEngineOptions('memory://'));
    try {
      const { rows } = await db.query<{ shared_buffers: string }>('SHOW shared_buffers');
      expect(rows).toEqual([{ shared_buffers: EMBEDDED_SHARED_BUFFERS }]);
      // PGlite's defaults are kept (search_path=public is one of them).
      const path = await db.query<{ search_path: string }>('SHOW search_path');
      expect(path.rows).toEqual([{ search_path: 'public' }]);
    } finally {
      await db.close();
    }
  });
});
