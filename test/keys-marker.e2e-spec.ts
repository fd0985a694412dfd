import { ApiKeyDirectory } from '../src/auth/api-key-directory';
import type { KeysMarker } from '../src/auth/keys-marker';
import { CatalogStateProvider } from '../src/catalog/catalog-state.provider';
import { CatalogStateRepository } from '../src/catalog/catalog-state.repository';
import { ApiError } from '../src/common/errors/api-error';
import { ChangeFeed } from '../src/database/change-feed';
import { Database } from '../src/database/database';
import { type TestApp, createTestApp } from './support/test-app';
import { eventually } from './support/timing';

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

  it('makes the key directory re-read a key changed behind its back at the next state read', async () => {
    const { key, summary } = await t.apiKeys.create({ name: 'behind', rpm: 10, monthlyQuota: 100 });
    const directory = t.app.get(ApiKeyDirectory);
    const refused = () => {
      try {
        // A known key is answered from memory, synchronously.
        expect(directory.authenticate(`Bearer ${key}`)).not.toBeInstanceOf(Promise);
        return false;
      } catch (error) {
        return error instanceof ApiError && error.code === 'API_KEY_DISABLED';
      }
    };
    expect(refused()).toBe(false);
    // A change feed going live would re-read the keys: let that happen first (PostgreSQL only).
    const feed = t.app.get(ChangeFeed);
    await eventually(async () => !feed.enabled || feed.live, 5_000, 20);
    // The directory's own refresh is then 7 s away at least (markers come with the state reads).
    await directory.refresh();
    // Plain SQL: no change notice, no in-process listener; only the marker tells.
    await db.query('UPDATE api_keys SET disabled = true, updated_at = now() WHERE id = $1', [summary.id]);
    await t.app.get(CatalogStateProvider).fresh();
    await eventually(async () => refused(), 500, 10);
  });
});
