import type { ApiKeyEntity } from './api-key.entity';
import { displayPrefix, hashApiKey, isWellFormedApiKey } from './api-key-format';
import { ApiKeyService } from './api-key.service';

const KEY = `mov_live_${'k'.repeat(43)}`;
const CREATED_AT = new Date('2026-03-01T12:00:00.000Z');

function storedKey(key: string, overrides: Partial<ApiKeyEntity> = {}): ApiKeyEntity {
  return {
    id: '0b7e3f4c-8f6a-4a53-9d55-2a1c3c1b9e01',
    name: 'partner',
    keyHash: hashApiKey(key),
    prefix: displayPrefix(key),
    rpm: 120,
    monthlyQuota: 50_000,
    disabled: false,
    expiresAt: null,
    previousKeyHash: null,
    previousKeyEndsAt: null,
    createdAt: CREATED_AT,
    updatedAt: CREATED_AT,
    ...overrides,
  };
}

/** The repository, with a manager whose transaction hands it back and records its statements. */
function mockRepository() {
  const repo = {
    findOneBy: jest.fn<Promise<ApiKeyEntity | null>, [Partial<ApiKeyEntity>]>(),
    create: jest.fn((input: Partial<ApiKeyEntity>) => ({ ...input }) as ApiKeyEntity),
    save: jest.fn(async (entity: ApiKeyEntity) => ({
      ...entity,
      createdAt: CREATED_AT,
      updatedAt: CREATED_AT,
    })),
    find: jest.fn<Promise<ApiKeyEntity[]>, [unknown]>(),
    count: jest.fn<Promise<number>, []>(),
    update: jest.fn<Promise<{ affected?: number | null }>, [unknown, unknown]>(),
    manager: {
      /** Statements sent outside a transaction (the listing's read of the monthly counters). */
      query: jest.fn<Promise<unknown[]>, [string, unknown[]?]>(async () => []),
      /** Statements sent inside a transaction, with the writes before them. */
      inTransaction: [] as string[],
      transaction: jest.fn(async (work: (manager: unknown) => Promise<unknown>) =>
        work({
          getRepository: () => repo,
          query: async (sql: string, params: unknown[]) => {
            repo.manager.inTransaction.push(`${sql} ${JSON.stringify(params)}`);
            return [];
          },
        }),
      ),
    },
  };
  return repo;
}

describe('ApiKeyService', () => {
  let repo: ReturnType<typeof mockRepository>;
  let service: ApiKeyService;

  beforeEach(() => {
    jest.useFakeTimers({ now: new Date('2026-03-15T10:00:00.000Z') });
    repo = mockRepository();
    service = new ApiKeyService(repo as never);
  });

  afterEach(() => {
    jest.useRealTimers();
  });

  describe('create', () => {
    it('stores only the hash and the display prefix, and returns the complete key once', async () => {
      const { key, summary } = await service.create({ name: 'partner', rpm: 60, monthlyQuota: 1_000 });
      expect(isWellFormedApiKey(key)).toBe(true);
      expect(repo.create).toHaveBeenCalledTimes(1);
      expect(repo.save).toHaveBeenCalledTimes(1);
      const stored = repo.create.mock.calls[0][0];
      expect(stored).toEqual({
        id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
        name: 'partner',
        keyHash: hashApiKey(key),
        prefix: key.slice(0, 13),
        rpm: 60,
        monthlyQuota: 1_000,
        disabled: false,
        expiresAt: null,
        previousKeyHash: null,
        previousKeyEndsAt: null,
      });
      expect(JSON.stringify(repo.create.mock.calls)).not.toContain(key.slice(13));
      expect(JSON.stringify(repo.save.mock.calls)).not.toContain(key.slice(13));
      expect(summary).toEqual({
        id: stored.id,
        name: 'partner',
        prefix: key.slice(0, 13),
        rpm: 60,
        monthly_quota: 1_000,
        disabled: false,
        created_at: '2026-03-01T12:00:00.000Z',
        state: 'active',
        expires_at: null,
        rotating_until: null,
        month_used: 0,
        last_used_on: null,
      });
      expect(JSON.stringify(summary)).not.toContain(key.slice(13));
    });

    it('gives each key its own secret and id', async () => {
      const first = await service.create({ name: 'a', rpm: 1, monthlyQuota: 1 });
      const second = await service.create({ name: 'b', rpm: 1, monthlyQuota: 1 });
      expect(first.key).not.toBe(second.key);
      expect(first.summary.id).not.toBe(second.summary.id);
    });

    it("announces the new key to the servers' change feeds in its transaction", async () => {
      await service.create({ name: 'partner', rpm: 60, monthlyQuota: 1_000 });
      expect(repo.manager.transaction).toHaveBeenCalledTimes(1);
      expect(repo.manager.inTransaction).toEqual(['SELECT pg_notify($1, $2) ["catalog_api_changes","keys"]']);
    });

    it('tells change listeners about the new key at once, by hash and policy', async () => {
      const listener = jest.fn();
      service.onChange(listener);
      const { key, summary } = await service.create({ name: 'partner', rpm: 60, monthlyQuota: 1_000 });
      expect(listener).toHaveBeenCalledWith({
        keyHash: hashApiKey(key),
        disabled: false,
        policy: { id: summary.id, rpm: 60, monthlyQuota: 1_000 },
        expiresAt: null,
        previousKeyHash: null,
        previousKeyEndsAt: null,
      });
    });
  });

  describe('list and count', () => {
    it('lists summaries in creation order without secrets', async () => {
      repo.find.mockResolvedValue([storedKey(KEY, { disabled: true })]);
      await expect(service.list()).resolves.toEqual([
        {
          id: '0b7e3f4c-8f6a-4a53-9d55-2a1c3c1b9e01',
          name: 'partner',
          prefix: 'mov_live_kkkk',
          rpm: 120,
          monthly_quota: 50_000,
          disabled: true,
          created_at: '2026-03-01T12:00:00.000Z',
          state: 'disabled',
          expires_at: null,
          rotating_until: null,
          month_used: 0,
          last_used_on: null,
        },
      ]);
      expect(repo.find).toHaveBeenCalledWith({ order: { createdAt: 'ASC', id: 'ASC' } });
    });

    it("adds each key's count this month and its last use from the monthly counters, in one read", async () => {
      const [used, unused] = ['0b7e3f4c-8f6a-4a53-9d55-2a1c3c1b9e01', '5d0c2a1e-3b4f-4c6d-8e9f-0a1b2c3d4e5f'];
      repo.find.mockResolvedValue([storedKey(KEY), storedKey(`mov_live_${'u'.repeat(43)}`, { id: unused })]);
      repo.manager.query.mockResolvedValueOnce([{ id: used, used: 1203, lastUsedOn: '2026-03-14' }]);
      const listed = await service.list();
      expect(listed.map((key) => [key.id, key.month_used, key.last_used_on])).toEqual([
        [used, 1203, '2026-03-14'],
        [unused, 0, null],
      ]);
      expect(repo.manager.query).toHaveBeenCalledTimes(1);
      const [sql] = repo.manager.query.mock.calls[0];
      expect(sql).toContain('FROM quota_counters');
      expect(sql).toMatch(/WHEN expires_at > now\(\) THEN reserved ELSE 0/);
      expect(sql).not.toMatch(/\b(INSERT|UPDATE|DELETE)\b/i);
    });

    it('counts through the repository', async () => {
      repo.count.mockResolvedValue(3);
      await expect(service.count()).resolves.toBe(3);
    });
  });

  describe('setDisabled', () => {
    it('updates the flag by id and reports whether a key was affected', async () => {
      repo.update.mockResolvedValueOnce({ affected: 1 });
      await expect(service.setDisabled('id-1', true)).resolves.toBe(true);
      expect(repo.update).toHaveBeenCalledWith({ id: 'id-1' }, { disabled: true });
      repo.update.mockResolvedValueOnce({ affected: 1 });
      await expect(service.setDisabled('id-1', false)).resolves.toBe(true);
      expect(repo.update).toHaveBeenLastCalledWith({ id: 'id-1' }, { disabled: false });
      expect(repo.manager.inTransaction).toEqual(
        Array(2).fill('SELECT pg_notify($1, $2) ["catalog_api_changes","keys"]'),
      );
    });

    it('tells change listeners about the new state', async () => {
      const listener = jest.fn();
      service.onChange(listener);
      repo.update.mockResolvedValueOnce({ affected: 1 });
      repo.findOneBy.mockResolvedValueOnce(storedKey(KEY, { disabled: true }));
      await service.setDisabled('0b7e3f4c-8f6a-4a53-9d55-2a1c3c1b9e01', true);
      expect(listener).toHaveBeenCalledWith(
        expect.objectContaining({ keyHash: hashApiKey(KEY), disabled: true }),
      );
    });

    it.each([0, undefined, null])(
      'returns false when nothing was affected (affected: %p)',
      async (affected) => {
        repo.update.mockResolvedValue({ affected });
        await expect(service.setDisabled('missing', true)).resolves.toBe(false);
      },
    );
  });
});
