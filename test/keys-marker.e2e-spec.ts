import type { KeysMarker } from '../src/auth/keys-marker';
import { CatalogStateRepository } from '../src/catalog/catalog-state.repository';
import { Database } from '../src/database/database';
import { type TestApp, createTestApp } from './support/test-app';

/**
 * The keys' marker that the catalog-state poll reads on the primary, in its own statement: the key
 * directory re-reads keys only when it moved, so it must move with every committed key change.
 */
describe("the keys' marker read with the catalog state", () => {
  let t: TestApp;
  let states: CatalogStateRepository;
  let db: Database;

  beforeAll(async () => {
    t = await createTestApp();
    states = t.app.get(CatalogStateRepository);
    db = t.app.get(Database);
  });
  afterAll(() => t.close());

  async function marker(): Promise<KeysMarker> {
    const read = await states.read();
    expect(read.state).toHaveProperty('catalogVersion');
    expect(read.keysMarker).not.toBeNull();
    return read.keysMarker!;
  }

  it('is read with the state where the reads go to the primary, and stays while nothing changes', async () => {
    const first = await marker();
    expect(first.count).toBe(1); // the test app's own key
    expect(await marker()).toEqual(first);
  });

  it('moves when a key is created, disabled, enabled or deleted', async () => {
    let previous = await marker();
    const expectMoved = async (count: number) => {
      const next = await marker();
      expect(next).not.toEqual(previous);
      expect(next.count).toBe(count);
      previous = next;
    };
    const { summary } = await t.apiKeys.create({ name: 'marker', rpm: 10, monthlyQuota: 100 });
    await expectMoved(2);
    await t.apiKeys.setDisabled(summary.id, true);
    await expectMoved(2);
    await t.apiKeys.setDisabled(summary.id, false);
    await expectMoved(2);
    await db.query('DELETE FROM api_keys WHERE id = $1', [summary.id]);
    await expectMoved(1);
  });

  it('moves for a change that commits after a later one (its updated_at older than the newest), unlike max(updated_at)', async () => {
    const { summary } = await t.apiKeys.create({ name: 'late', rpm: 10, monthlyQuota: 100 });
    await t.apiKeys.create({ name: 'later', rpm: 10, monthlyQuota: 100 });
    const before = await marker();
    const newest = 'SELECT max(updated_at) AS max FROM api_keys';
    const maxBefore = await db.query(newest);
    // As a disable whose transaction started before the later key's and committed after it.
    await db.query(
      `UPDATE api_keys SET disabled = true, updated_at = (SELECT min(updated_at) FROM api_keys WHERE name = 'later') - interval '1 millisecond'
        WHERE id = $1`,
      [summary.id],
    );
    const after = await marker();
    expect(after).not.toEqual(before);
    expect(after.count).toBe(before.count);
    expect(await db.query(newest)).toEqual(maxBefore);
  });
});
