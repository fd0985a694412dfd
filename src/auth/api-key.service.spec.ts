import { ApiError } from '../common/errors/api-error';
import type { ErrorCode } from '../common/errors/error-catalogue';
import type { ApiKeyEntity } from './api-key.entity';
import { displayPrefix, hashApiKey, isWellFormedApiKey } from './api-key-format';
import { ApiKeyService, KEY_CACHE_TTL_MS } from './api-key.service';

const KEY = `mov_live_${'k'.repeat(43)}`;
const OTHER_KEY = `mov_live_${'o'.repeat(43)}`;
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
    createdAt: CREATED_AT,
    updatedAt: CREATED_AT,
    ...overrides,
  };
}

function mockRepository() {
  return {
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
  };
}

async function errorCode(work: Promise<unknown>): Promise<ErrorCode> {
  try {
    await work;
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return (error as ApiError).code;
  }
  throw new Error('expected an ApiError');
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

  describe('authenticate', () => {
    it.each([
      ['no header', undefined],
      ['an empty header', ''],
    ])('refuses %s with MISSING_API_KEY without touching the repository', async (_case, header) => {
      expect(await errorCode(service.authenticate(header))).toBe('MISSING_API_KEY');
      expect(repo.findOneBy).not.toHaveBeenCalled();
    });

    it.each([
      ['the scheme alone', 'Bearer'],
      ['another scheme', 'Basic dXNlcjpwYXNz'],
      ['a short key', 'Bearer mov_live_short'],
      ['a forbidden character', `Bearer mov_live_${'a'.repeat(42)}!`],
      ['two keys', `Bearer ${KEY} ${KEY}`],
      ['a repeated header', [`Bearer ${KEY}`, `Bearer ${KEY}`]],
    ])('refuses %s with INVALID_API_KEY without touching the repository', async (_case, header) => {
      expect(await errorCode(service.authenticate(header))).toBe('INVALID_API_KEY');
      expect(repo.findOneBy).not.toHaveBeenCalled();
    });

    it('looks a well-formed key up by its SHA-256 hash and returns its policy', async () => {
      repo.findOneBy.mockResolvedValue(storedKey(KEY));
      await expect(service.authenticate(`Bearer ${KEY}`)).resolves.toEqual({
        id: '0b7e3f4c-8f6a-4a53-9d55-2a1c3c1b9e01',
        rpm: 120,
        monthlyQuota: 50_000,
      });
      expect(repo.findOneBy).toHaveBeenCalledTimes(1);
      expect(repo.findOneBy).toHaveBeenCalledWith({ keyHash: hashApiKey(KEY) });
      expect(JSON.stringify(repo.findOneBy.mock.calls)).not.toContain(KEY);
    });

    it('refuses a well-formed key that is not stored with INVALID_API_KEY', async () => {
      repo.findOneBy.mockResolvedValue(null);
      expect(await errorCode(service.authenticate(`Bearer ${KEY}`))).toBe('INVALID_API_KEY');
      expect(repo.findOneBy).toHaveBeenCalledWith({ keyHash: hashApiKey(KEY) });
    });

    it('refuses a row whose stored hash is not the hash of the key with INVALID_API_KEY', async () => {
      repo.findOneBy.mockResolvedValue(storedKey(OTHER_KEY));
      expect(await errorCode(service.authenticate(`Bearer ${KEY}`))).toBe('INVALID_API_KEY');
    });

    it('refuses a disabled key with API_KEY_DISABLED', async () => {
      repo.findOneBy.mockResolvedValue(storedKey(KEY, { disabled: true }));
      expect(await errorCode(service.authenticate(`Bearer ${KEY}`))).toBe('API_KEY_DISABLED');
    });

    it('answers a second request within the cache TTL without a second query', async () => {
      repo.findOneBy.mockResolvedValue(storedKey(KEY));
      await service.authenticate(`Bearer ${KEY}`);
      jest.advanceTimersByTime(KEY_CACHE_TTL_MS - 1);
      await expect(service.authenticate(`bearer  ${KEY}`)).resolves.toMatchObject({ rpm: 120 });
      expect(repo.findOneBy).toHaveBeenCalledTimes(1);
    });

    it('caches unknown keys too, so a repeated bad key costs one query', async () => {
      repo.findOneBy.mockResolvedValue(null);
      expect(await errorCode(service.authenticate(`Bearer ${KEY}`))).toBe('INVALID_API_KEY');
      expect(await errorCode(service.authenticate(`Bearer ${KEY}`))).toBe('INVALID_API_KEY');
      expect(repo.findOneBy).toHaveBeenCalledTimes(1);
    });

    it('caches per key: another key is looked up on its own', async () => {
      repo.findOneBy.mockImplementation(async ({ keyHash }) =>
        keyHash === hashApiKey(KEY) ? storedKey(KEY) : storedKey(OTHER_KEY, { id: 'other', rpm: 7 }),
      );
      await expect(service.authenticate(`Bearer ${KEY}`)).resolves.toMatchObject({ rpm: 120 });
      await expect(service.authenticate(`Bearer ${OTHER_KEY}`)).resolves.toEqual({
        id: 'other',
        rpm: 7,
        monthlyQuota: 50_000,
      });
      expect(repo.findOneBy).toHaveBeenCalledTimes(2);
      expect(repo.findOneBy).toHaveBeenNthCalledWith(2, { keyHash: hashApiKey(OTHER_KEY) });
    });

    it('shares one query between concurrent authentications of the same uncached key', async () => {
      let resolve!: (entity: ApiKeyEntity) => void;
      repo.findOneBy.mockReturnValue(new Promise((done) => (resolve = done)));
      const pending = [1, 2, 3].map(() => service.authenticate(`Bearer ${KEY}`));
      expect(repo.findOneBy).toHaveBeenCalledTimes(1);
      resolve(storedKey(KEY));
      const policies = await Promise.all(pending);
      expect(policies.map((policy) => policy.rpm)).toEqual([120, 120, 120]);
      expect(repo.findOneBy).toHaveBeenCalledTimes(1);
    });

    it('queries again once the TTL has passed, so a disable becomes visible', async () => {
      repo.findOneBy
        .mockResolvedValueOnce(storedKey(KEY))
        .mockResolvedValueOnce(storedKey(KEY, { disabled: true }));
      await expect(service.authenticate(`Bearer ${KEY}`)).resolves.toMatchObject({ rpm: 120 });
      jest.advanceTimersByTime(KEY_CACHE_TTL_MS - 1);
      await expect(service.authenticate(`Bearer ${KEY}`)).resolves.toMatchObject({ rpm: 120 });
      expect(repo.findOneBy).toHaveBeenCalledTimes(1);
      jest.advanceTimersByTime(1);
      expect(await errorCode(service.authenticate(`Bearer ${KEY}`))).toBe('API_KEY_DISABLED');
      expect(repo.findOneBy).toHaveBeenCalledTimes(2);
    });

    it('keeps the TTL within the 10 s the contract allows for a disable', () => {
      expect(KEY_CACHE_TTL_MS).toBeGreaterThan(0);
      expect(KEY_CACHE_TTL_MS).toBeLessThanOrEqual(10_000);
    });

    it('re-queries an unknown key after the TTL, so a new key is accepted', async () => {
      repo.findOneBy.mockResolvedValueOnce(null).mockResolvedValueOnce(storedKey(KEY));
      expect(await errorCode(service.authenticate(`Bearer ${KEY}`))).toBe('INVALID_API_KEY');
      jest.setSystemTime(Date.now() + KEY_CACHE_TTL_MS);
      await expect(service.authenticate(`Bearer ${KEY}`)).resolves.toMatchObject({ rpm: 120 });
      expect(repo.findOneBy).toHaveBeenCalledTimes(2);
    });

    it('does not cache a failed lookup', async () => {
      const failure = new Error('connection lost');
      repo.findOneBy.mockRejectedValueOnce(failure).mockResolvedValueOnce(storedKey(KEY));
      await expect(service.authenticate(`Bearer ${KEY}`)).rejects.toBe(failure);
      await expect(service.authenticate(`Bearer ${KEY}`)).resolves.toMatchObject({ rpm: 120 });
      expect(repo.findOneBy).toHaveBeenCalledTimes(2);
    });

    it('passes a failed lookup to every concurrent caller, then retries', async () => {
      const failure = new Error('connection lost');
      let reject!: (error: Error) => void;
      repo.findOneBy.mockReturnValueOnce(new Promise((_done, fail) => (reject = fail)));
      repo.findOneBy.mockResolvedValueOnce(storedKey(KEY));
      const pending = [1, 2].map(() => service.authenticate(`Bearer ${KEY}`));
      reject(failure);
      await expect(pending[0]).rejects.toBe(failure);
      await expect(pending[1]).rejects.toBe(failure);
      await expect(service.authenticate(`Bearer ${KEY}`)).resolves.toMatchObject({ rpm: 120 });
      expect(repo.findOneBy).toHaveBeenCalledTimes(2);
    });

    it('stays bounded under a flood of distinct keys, forgetting old entries', async () => {
      repo.findOneBy.mockResolvedValue(null);
      const key = (n: number) => `mov_live_${n.toString().padStart(43, '0')}`;
      for (let n = 0; n < 10_000; n += 1) await errorCode(service.authenticate(`Bearer ${key(n)}`));
      expect(repo.findOneBy).toHaveBeenCalledTimes(10_000);
      await errorCode(service.authenticate(`Bearer ${key(0)}`));
      expect(repo.findOneBy).toHaveBeenCalledTimes(10_000);
      await errorCode(service.authenticate(`Bearer ${key(10_000)}`));
      await errorCode(service.authenticate(`Bearer ${key(0)}`));
      expect(repo.findOneBy).toHaveBeenCalledTimes(10_002);
    });
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
      });
      expect(JSON.stringify(summary)).not.toContain(key.slice(13));
    });

    it('gives each key its own secret and id', async () => {
      const first = await service.create({ name: 'a', rpm: 1, monthlyQuota: 1 });
      const second = await service.create({ name: 'b', rpm: 1, monthlyQuota: 1 });
      expect(first.key).not.toBe(second.key);
      expect(first.summary.id).not.toBe(second.summary.id);
    });

    it('creates a key that authenticates against what was stored', async () => {
      const { key } = await service.create({ name: 'partner', rpm: 60, monthlyQuota: 1_000 });
      const saved = await repo.save.mock.results[0].value;
      repo.findOneBy.mockImplementation(async ({ keyHash }) => (keyHash === saved.keyHash ? saved : null));
      await expect(service.authenticate(`Bearer ${key}`)).resolves.toEqual({
        id: saved.id,
        rpm: 60,
        monthlyQuota: 1_000,
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
        },
      ]);
      expect(repo.find).toHaveBeenCalledWith({ order: { createdAt: 'ASC', id: 'ASC' } });
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
