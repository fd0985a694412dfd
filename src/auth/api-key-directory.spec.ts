import { Logger } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error';
import type { ErrorCode } from '../common/errors/error-catalogue';
import { hashApiKey } from './api-key-format';
import { ApiKeyDirectory, KEY_REFRESH_INTERVAL_MS } from './api-key-directory';
import { ApiKeyService, type KeyChangeListener, type StoredKeyState } from './api-key.service';

const KEY = `mov_live_${'k'.repeat(43)}`;
const OTHER_KEY = `mov_live_${'o'.repeat(43)}`;

function state(key: string, overrides: Partial<StoredKeyState> = {}): StoredKeyState {
  return {
    id: `id-${key.slice(-1)}`,
    keyHash: hashApiKey(key),
    rpm: 120,
    monthlyQuota: 50_000,
    disabled: false,
    ...overrides,
  };
}

function fakeService() {
  const listeners: KeyChangeListener[] = [];
  const service = {
    allStates: jest.fn<Promise<StoredKeyState[]>, []>().mockResolvedValue([state(KEY)]),
    statesChangedWithin: jest.fn<Promise<StoredKeyState[]>, [number]>().mockResolvedValue([]),
    onChange: (listener: KeyChangeListener) => {
      listeners.push(listener);
      return () => undefined;
    },
  };
  return { service, emit: (key: StoredKeyState) => listeners.forEach((listener) => listener(key)) };
}

function codeOf(work: () => unknown): ErrorCode | 'accepted' {
  try {
    work();
    return 'accepted';
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return (error as ApiError).code;
  }
}

describe('ApiKeyDirectory', () => {
  let fake: ReturnType<typeof fakeService>;
  let directory: ApiKeyDirectory;
  const queries = () =>
    fake.service.allStates.mock.calls.length + fake.service.statesChangedWithin.mock.calls.length;

  beforeEach(async () => {
    jest.useFakeTimers({ now: new Date('2026-03-15T10:00:00.000Z') });
    fake = fakeService();
    directory = new ApiKeyDirectory(fake.service as unknown as ApiKeyService);
    await directory.onModuleInit();
  });
  afterEach(() => {
    directory.onModuleDestroy();
    jest.useRealTimers();
    jest.restoreAllMocks();
  });

  it('loads every key at start and authenticates from memory', () => {
    expect(directory.authenticate(`Bearer ${KEY}`)).toEqual({ id: 'id-k', rpm: 120, monthlyQuota: 50_000 });
    expect(directory.authenticate(`bearer   ${KEY}`)).toMatchObject({ rpm: 120 });
    expect(queries()).toBe(1);
  });

  it.each([
    ['no header', undefined, 'MISSING_API_KEY'],
    ['an empty header', '', 'MISSING_API_KEY'],
    ['another scheme', `Token ${KEY}`, 'INVALID_API_KEY'],
    ['a malformed key', 'Bearer mov_live_short', 'INVALID_API_KEY'],
    ['a well-formed key nobody has', `Bearer ${OTHER_KEY}`, 'INVALID_API_KEY'],
  ])('refuses %s without a query', (_case, header, code) => {
    expect(codeOf(() => directory.authenticate(header))).toBe(code);
    expect(queries()).toBe(1);
  });

  it('refuses a flood of distinct unknown keys without a query, and still knows its own keys', () => {
    for (let i = 0; i < 20_000; i++) {
      const key = `mov_live_${String(i).padStart(43, 'x')}`;
      expect(codeOf(() => directory.authenticate(`Bearer ${key}`))).toBe('INVALID_API_KEY');
    }
    expect(queries()).toBe(1);
    expect(directory.authenticate(`Bearer ${KEY}`)).toMatchObject({ id: 'id-k' });
  });

  it('refuses a key disabled by another process after the next refresh, within the 10 s rule', async () => {
    fake.service.statesChangedWithin.mockResolvedValue([state(KEY, { disabled: true })]);
    // Inside the refresh interval the directory still holds the key as it was.
    await jest.advanceTimersByTimeAsync(KEY_REFRESH_INTERVAL_MS - 1);
    expect(codeOf(() => directory.authenticate(`Bearer ${KEY}`))).toBe('accepted');
    await jest.advanceTimersByTimeAsync(1);
    expect(codeOf(() => directory.authenticate(`Bearer ${KEY}`))).toBe('API_KEY_DISABLED');
    expect(KEY_REFRESH_INTERVAL_MS).toBeLessThanOrEqual(5_000);
  });

  it('reads a little more than the time since the last refresh, on the database clock', async () => {
    await jest.advanceTimersByTimeAsync(KEY_REFRESH_INTERVAL_MS);
    const [seconds] = fake.service.statesChangedWithin.mock.calls[0];
    expect(seconds).toBeGreaterThanOrEqual(KEY_REFRESH_INTERVAL_MS / 1000);
    expect(seconds).toBeLessThan(60);
  });

  it('learns keys created or disabled through this process at once', () => {
    fake.emit(state(OTHER_KEY));
    expect(directory.authenticate(`Bearer ${OTHER_KEY}`)).toMatchObject({ id: 'id-o' });
    fake.emit(state(KEY, { disabled: true }));
    expect(codeOf(() => directory.authenticate(`Bearer ${KEY}`))).toBe('API_KEY_DISABLED');
    fake.emit(state(KEY, { disabled: false }));
    expect(codeOf(() => directory.authenticate(`Bearer ${KEY}`))).toBe('accepted');
  });

  it('keeps serving the keys it knows while the database is down', async () => {
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    fake.service.statesChangedWithin.mockRejectedValue(new Error('down'));
    await jest.advanceTimersByTimeAsync(3 * KEY_REFRESH_INTERVAL_MS);
    expect(codeOf(() => directory.authenticate(`Bearer ${KEY}`))).toBe('accepted');
  });

  it('reloads everything now and then, so a deleted key goes', async () => {
    fake.service.allStates.mockResolvedValue([]);
    await jest.advanceTimersByTimeAsync(60_000);
    expect(codeOf(() => directory.authenticate(`Bearer ${KEY}`))).toBe('INVALID_API_KEY');
  });
});
