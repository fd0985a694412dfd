import { Logger } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error';
import type { ErrorCode } from '../common/errors/error-catalogue';
import * as keyFormat from './api-key-format';
import { hashApiKey } from './api-key-format';
import { FakeChangeFeed } from '../../test/support/fake-change-feed';
import {
  ApiKeyDirectory,
  KEY_MISS_REREAD_INTERVAL_MS,
  KEY_REFRESH_INTERVAL_MS,
  KEY_SAFETY_NET_MS,
} from './api-key-directory';
import { ApiKeyService, type KeyChangeListener, type StoredKey } from './api-key.service';
import { KEY_CHANGE_OVERLAP_S, KeysMarkers } from './keys-marker';

const KEY = `mov_live_${'k'.repeat(43)}`;
const OTHER_KEY = `mov_live_${'o'.repeat(43)}`;

function state(key: string, overrides: Partial<StoredKey> = {}): StoredKey {
  return {
    keyHash: hashApiKey(key),
    disabled: false,
    policy: { id: `id-${key.slice(-1)}`, rpm: 120, monthlyQuota: 50_000 },
    expiresAt: null,
    previousKeyHash: null,
    previousKeyEndsAt: null,
    ...overrides,
  };
}

function fakeService() {
  const listeners: KeyChangeListener[] = [];
  const service = {
    allStates: jest.fn<Promise<StoredKey[]>, []>().mockResolvedValue([state(KEY)]),
    statesChangedWithin: jest.fn<Promise<StoredKey[]>, [number]>().mockResolvedValue([]),
    onChange: (listener: KeyChangeListener) => {
      listeners.push(listener);
      return () => undefined;
    },
  };
  return { service, emit: (key: StoredKey) => listeners.forEach((listener) => listener(key)) };
}

function codeOf(work: () => unknown): ErrorCode | 'accepted' {
  try {
    const answer = work();
    expect(answer).not.toBeInstanceOf(Promise);
    return 'accepted';
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return (error as ApiError).code;
  }
}

/** `codeOf` for an answer that may wait for the directory's re-read (an unknown key). */
async function eventualCodeOf(work: () => unknown): Promise<ErrorCode | 'accepted'> {
  try {
    await work();
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
  ])('refuses %s at once, without a query', (_case, header, code) => {
    expect(codeOf(() => directory.authenticate(header))).toBe(code);
    expect(queries()).toBe(1);
  });

  it('refuses a well-formed key nobody has after one re-read of the recent changes', async () => {
    const answer = eventualCodeOf(() => directory.authenticate(`Bearer ${OTHER_KEY}`));
    await jest.advanceTimersByTimeAsync(0);
    expect(await answer).toBe('INVALID_API_KEY');
    expect(fake.service.statesChangedWithin).toHaveBeenCalledTimes(1);
  });

  it('accepts a key another process has just created on its first request', async () => {
    fake.service.statesChangedWithin.mockResolvedValue([state(OTHER_KEY)]);
    const answer = directory.authenticate(`Bearer ${OTHER_KEY}`);
    await jest.advanceTimersByTimeAsync(0);
    await expect(answer).resolves.toEqual({ id: 'id-o', rpm: 120, monthlyQuota: 50_000 });
    // From then on it is known: answered from memory.
    expect(codeOf(() => directory.authenticate(`Bearer ${OTHER_KEY}`))).toBe('accepted');
  });

  it('shares re-reads among a flood of distinct unknown keys: one per interval, and still knows its own keys', async () => {
    const answers: Promise<ErrorCode | 'accepted'>[] = [];
    for (let i = 0; i < 5_000; i++) {
      const key = `mov_live_${String(i).padStart(43, 'x')}`;
      answers.push(eventualCodeOf(() => directory.authenticate(`Bearer ${key}`)));
      // 5,000 keys over one second.
      if (i % 5 === 4) await jest.advanceTimersByTimeAsync(1);
    }
    await jest.advanceTimersByTimeAsync(KEY_MISS_REREAD_INTERVAL_MS);
    expect(new Set(await Promise.all(answers))).toEqual(new Set(['INVALID_API_KEY']));
    const rereads = fake.service.statesChangedWithin.mock.calls.length;
    expect(rereads).toBeGreaterThan(1);
    expect(rereads).toBeLessThanOrEqual(1 + 1000 / KEY_MISS_REREAD_INTERVAL_MS + 1);
    expect(fake.service.allStates).toHaveBeenCalledTimes(1);
    expect(directory.authenticate(`Bearer ${KEY}`)).toMatchObject({ id: 'id-k' });
  });

  it('answers an unknown key within a bounded wait when the re-read hangs', async () => {
    fake.service.statesChangedWithin.mockReturnValue(new Promise(() => undefined));
    const answer = eventualCodeOf(() => directory.authenticate(`Bearer ${OTHER_KEY}`));
    await jest.advanceTimersByTimeAsync(250);
    expect(await answer).toBe('INVALID_API_KEY');
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

  describe('expiry and rotation, checked against the clock on every request', () => {
    const NOW = new Date('2026-03-15T10:00:00.000Z').getTime();
    const ROTATED_KEY = `mov_live_${'r'.repeat(43)}`;

    it('refuses a key from its expiry instant, exactly, without a re-read', () => {
      fake.emit(state(KEY, { expiresAt: NOW + 5_000 }));
      const before = queries();
      jest.setSystemTime(NOW + 4_999);
      expect(codeOf(() => directory.authenticate(`Bearer ${KEY}`))).toBe('accepted');
      jest.setSystemTime(NOW + 5_000);
      expect(codeOf(() => directory.authenticate(`Bearer ${KEY}`))).toBe('API_KEY_DISABLED');
      expect(queries()).toBe(before);
    });

    it('says the key expired in the message', () => {
      fake.emit(state(KEY, { expiresAt: NOW }));
      expect(() => directory.authenticate(`Bearer ${KEY}`)).toThrow(/expired/);
    });

    it('accepts both secrets during the overlap, as the same key, and only the new one after it', () => {
      const rotated = state(ROTATED_KEY, {
        policy: state(KEY).policy,
        previousKeyHash: hashApiKey(KEY),
        previousKeyEndsAt: NOW + 60_000,
      });
      fake.emit(rotated);
      expect(directory.authenticate(`Bearer ${KEY}`)).toEqual(state(KEY).policy);
      expect(directory.authenticate(`Bearer ${ROTATED_KEY}`)).toEqual(state(KEY).policy);
      jest.setSystemTime(NOW + 59_999);
      expect(codeOf(() => directory.authenticate(`Bearer ${KEY}`))).toBe('accepted');
      jest.setSystemTime(NOW + 60_000);
      expect(codeOf(() => directory.authenticate(`Bearer ${KEY}`))).toBe('API_KEY_DISABLED');
      expect(() => directory.authenticate(`Bearer ${KEY}`)).toThrow(/rotation/);
      expect(codeOf(() => directory.authenticate(`Bearer ${ROTATED_KEY}`))).toBe('accepted');
    });

    it('refuses the old secret at once after a rotation with no overlap', () => {
      fake.emit(
        state(ROTATED_KEY, {
          policy: state(KEY).policy,
          previousKeyHash: hashApiKey(KEY),
          previousKeyEndsAt: NOW,
        }),
      );
      expect(codeOf(() => directory.authenticate(`Bearer ${KEY}`))).toBe('API_KEY_DISABLED');
      expect(codeOf(() => directory.authenticate(`Bearer ${ROTATED_KEY}`))).toBe('accepted');
    });

    it('forgets the oldest secret when a second rotation replaces the previous one', async () => {
      const third = `mov_live_${'t'.repeat(43)}`;
      fake.emit(
        state(ROTATED_KEY, {
          policy: state(KEY).policy,
          previousKeyHash: hashApiKey(KEY),
          previousKeyEndsAt: NOW + 60_000,
        }),
      );
      fake.emit(
        state(third, {
          policy: state(KEY).policy,
          previousKeyHash: hashApiKey(ROTATED_KEY),
          previousKeyEndsAt: NOW + 60_000,
        }),
      );
      expect(codeOf(() => directory.authenticate(`Bearer ${third}`))).toBe('accepted');
      expect(codeOf(() => directory.authenticate(`Bearer ${ROTATED_KEY}`))).toBe('accepted');
      const oldest = eventualCodeOf(() => directory.authenticate(`Bearer ${KEY}`));
      await jest.advanceTimersByTimeAsync(0);
      expect(await oldest).toBe('INVALID_API_KEY');
    });

    it('refuses both secrets of a disabled or expired key during an overlap', () => {
      const rotating = {
        policy: state(KEY).policy,
        previousKeyHash: hashApiKey(KEY),
        previousKeyEndsAt: NOW + 60_000,
      };
      fake.emit(state(ROTATED_KEY, { ...rotating, disabled: true }));
      expect(codeOf(() => directory.authenticate(`Bearer ${KEY}`))).toBe('API_KEY_DISABLED');
      expect(codeOf(() => directory.authenticate(`Bearer ${ROTATED_KEY}`))).toBe('API_KEY_DISABLED');
      fake.emit(state(ROTATED_KEY, { ...rotating, expiresAt: NOW }));
      expect(codeOf(() => directory.authenticate(`Bearer ${KEY}`))).toBe('API_KEY_DISABLED');
      expect(codeOf(() => directory.authenticate(`Bearer ${ROTATED_KEY}`))).toBe('API_KEY_DISABLED');
    });

    it('counts the usable keys expiring within a bound, once per key, for the gauge', () => {
      const day = 86_400_000;
      fake.emit(
        state(KEY, {
          expiresAt: NOW + 3 * day,
          previousKeyHash: hashApiKey(ROTATED_KEY),
          previousKeyEndsAt: NOW + day,
        }),
      );
      fake.emit(state(OTHER_KEY, { expiresAt: NOW + 30 * day }));
      expect(directory.countExpiringWithin(7 * day, NOW)).toBe(1);
      fake.emit(state(OTHER_KEY, { expiresAt: NOW + 7 * day }));
      expect(directory.countExpiringWithin(7 * day, NOW)).toBe(2);
      fake.emit(state(OTHER_KEY, { expiresAt: NOW + day, disabled: true }));
      expect(directory.countExpiringWithin(7 * day, NOW)).toBe(1);
      expect(directory.countExpiringWithin(7 * day, NOW + 3 * day)).toBe(0);
    });

    it("tells a key's expiry, and its previous secret's end only while the overlap runs", () => {
      expect(directory.lifetimeOf('id-k', NOW)).toEqual({ expiresAt: null, previousKeyEndsAt: null });
      fake.emit(
        state(ROTATED_KEY, {
          policy: state(KEY).policy,
          expiresAt: NOW + 86_400_000,
          previousKeyHash: hashApiKey(KEY),
          previousKeyEndsAt: NOW + 60_000,
        }),
      );
      expect(directory.lifetimeOf('id-k', NOW)).toEqual({
        expiresAt: NOW + 86_400_000,
        previousKeyEndsAt: NOW + 60_000,
      });
      expect(directory.lifetimeOf('id-k', NOW + 60_000)).toEqual({
        expiresAt: NOW + 86_400_000,
        previousKeyEndsAt: null,
      });
      expect(directory.lifetimeOf('no-such-id', NOW)).toEqual({ expiresAt: null, previousKeyEndsAt: null });
    });

    it('learns a rotation made by another process at the next refresh, and loads both secrets at start', async () => {
      const rotated = state(ROTATED_KEY, {
        policy: state(KEY).policy,
        previousKeyHash: hashApiKey(KEY),
        previousKeyEndsAt: NOW + 600_000,
      });
      fake.service.statesChangedWithin.mockResolvedValue([rotated]);
      await jest.advanceTimersByTimeAsync(KEY_REFRESH_INTERVAL_MS);
      expect(codeOf(() => directory.authenticate(`Bearer ${ROTATED_KEY}`))).toBe('accepted');
      expect(codeOf(() => directory.authenticate(`Bearer ${KEY}`))).toBe('accepted');

      fake.service.allStates.mockResolvedValue([rotated]);
      const fresh = new ApiKeyDirectory(fake.service as unknown as ApiKeyService);
      await fresh.onModuleInit();
      try {
        expect(codeOf(() => fresh.authenticate(`Bearer ${KEY}`))).toBe('accepted');
        expect(codeOf(() => fresh.authenticate(`Bearer ${ROTATED_KEY}`))).toBe('accepted');
      } finally {
        fresh.onModuleDestroy();
      }
    });
  });

  it("reads and hashes every request's header anew: no header outlives its request", () => {
    const hashes = jest.spyOn(keyFormat, 'hashApiKey');
    expect(directory.authenticate(`Bearer ${KEY}`)).toMatchObject({ id: 'id-k' });
    expect(directory.authenticate(`Bearer ${KEY}`)).toMatchObject({ id: 'id-k' });
    expect(hashes).toHaveBeenCalledTimes(2);
    fake.emit(state(KEY, { disabled: true }));
    hashes.mockClear();
    expect(codeOf(() => directory.authenticate(`Bearer ${KEY}`))).toBe('API_KEY_DISABLED');
    expect(hashes).toHaveBeenCalledTimes(1);
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
    const answer = eventualCodeOf(() => directory.authenticate(`Bearer ${KEY}`));
    await jest.advanceTimersByTimeAsync(KEY_MISS_REREAD_INTERVAL_MS);
    expect(await answer).toBe('INVALID_API_KEY');
  });

  describe("with the keys' marker read with the catalog state", () => {
    let markers: KeysMarkers;
    let marked: ApiKeyDirectory;
    /** The state poll's marker reads: every 800 ms (as CATALOG_STATE_POLL_MS), one key (`count`). */
    let poll: NodeJS.Timeout;
    let digest: string;

    beforeEach(async () => {
      directory.onModuleDestroy(); // only this one reads from here on
      markers = new KeysMarkers();
      marked = new ApiKeyDirectory(fake.service as unknown as ApiKeyService, undefined, markers);
      await marked.onModuleInit();
      digest = 'a';
      poll = setInterval(() => markers.observe({ count: 1, digest }, Date.now()), 800);
      // The first marker is new to the directory: one re-read, then none while it stays.
      await jest.advanceTimersByTimeAsync(800 + KEY_MISS_REREAD_INTERVAL_MS);
      fake.service.statesChangedWithin.mockClear();
      fake.service.allStates.mockClear();
    });
    afterEach(() => {
      clearInterval(poll);
      marked.onModuleDestroy();
    });

    it('re-reads nothing while the marker stays, and needs no refresh of its own', async () => {
      await jest.advanceTimersByTimeAsync(10 * KEY_REFRESH_INTERVAL_MS);
      expect(queries()).toBe(0);
    });

    it('re-reads the recent changes once when the marker moves: a disable is refused within a poll and two reads', async () => {
      fake.service.statesChangedWithin.mockResolvedValue([state(KEY, { disabled: true })]);
      digest = 'b';
      await jest.advanceTimersByTimeAsync(800 + KEY_MISS_REREAD_INTERVAL_MS);
      expect(codeOf(() => marked.authenticate(`Bearer ${KEY}`))).toBe('API_KEY_DISABLED');
      expect(fake.service.statesChangedWithin).toHaveBeenCalledTimes(1);
      const [seconds] = fake.service.statesChangedWithin.mock.calls[0];
      expect(seconds).toBeGreaterThanOrEqual(KEY_CHANGE_OVERLAP_S);
      await jest.advanceTimersByTimeAsync(5 * 800);
      expect(fake.service.statesChangedWithin).toHaveBeenCalledTimes(1);
    });

    it('re-reads again at the next marker when a re-read failed', async () => {
      jest.spyOn(Logger.prototype, 'debug').mockImplementation(() => undefined);
      fake.service.statesChangedWithin.mockRejectedValueOnce(new Error('down'));
      fake.service.statesChangedWithin.mockResolvedValue([state(KEY, { disabled: true })]);
      digest = 'b';
      await jest.advanceTimersByTimeAsync(800 + KEY_MISS_REREAD_INTERVAL_MS);
      expect(codeOf(() => marked.authenticate(`Bearer ${KEY}`))).toBe('accepted');
      await jest.advanceTimersByTimeAsync(800);
      expect(codeOf(() => marked.authenticate(`Bearer ${KEY}`))).toBe('API_KEY_DISABLED');
      expect(fake.service.statesChangedWithin).toHaveBeenCalledTimes(2);
    });

    it('reloads everything when the count says a key was deleted', async () => {
      fake.service.allStates.mockResolvedValue([]);
      clearInterval(poll);
      poll = setInterval(() => markers.observe({ count: 0, digest: 'a' }, Date.now()), 800);
      await jest.advanceTimersByTimeAsync(800 + KEY_MISS_REREAD_INTERVAL_MS);
      expect(fake.service.allStates).toHaveBeenCalledTimes(1);
      const answer = eventualCodeOf(() => marked.authenticate(`Bearer ${KEY}`));
      await jest.advanceTimersByTimeAsync(KEY_MISS_REREAD_INTERVAL_MS);
      expect(await answer).toBe('INVALID_API_KEY');
    });

    it('needs no refresh of its own while markers come every 5 s (an idle process polls slowly)', async () => {
      clearInterval(poll);
      poll = setInterval(() => markers.observe({ count: 1, digest }, Date.now()), 5_000);
      await jest.advanceTimersByTimeAsync(30_000);
      expect(queries()).toBe(0);
    });

    it('refreshes on its own again when markers stop coming (the state reads fail)', async () => {
      clearInterval(poll);
      await jest.advanceTimersByTimeAsync(KEY_SAFETY_NET_MS - 1_000);
      expect(fake.service.statesChangedWithin).not.toHaveBeenCalled();
      await jest.advanceTimersByTimeAsync(2_000);
      expect(fake.service.statesChangedWithin).toHaveBeenCalledTimes(1);
    });

    it('still reloads everything once a minute', async () => {
      await jest.advanceTimersByTimeAsync(60_000);
      expect(fake.service.allStates).toHaveBeenCalledTimes(1);
      expect(fake.service.statesChangedWithin).not.toHaveBeenCalled();
    });
  });

  describe('with a change feed', () => {
    let feed: FakeChangeFeed;
    let fed: ApiKeyDirectory;

    beforeEach(async () => {
      directory.onModuleDestroy(); // only this one reads from here on
      feed = new FakeChangeFeed();
      fed = new ApiKeyDirectory(fake.service as unknown as ApiKeyService, feed);
      await fed.onModuleInit();
      feed.setLive(true);
      await jest.advanceTimersByTimeAsync(0);
      fake.service.statesChangedWithin.mockClear();
    });
    afterEach(() => fed.onModuleDestroy());

    it('re-reads on a key notice at once, and otherwise only as a safety net, within the 10 s rule', async () => {
      await jest.advanceTimersByTimeAsync(KEY_SAFETY_NET_MS - 1_000);
      expect(fake.service.statesChangedWithin).not.toHaveBeenCalled();
      fake.service.statesChangedWithin.mockResolvedValue([state(KEY, { disabled: true })]);
      feed.notice('catalog');
      feed.notice('keys');
      await jest.advanceTimersByTimeAsync(KEY_MISS_REREAD_INTERVAL_MS);
      expect(fake.service.statesChangedWithin).toHaveBeenCalledTimes(1);
      expect(codeOf(() => fed.authenticate(`Bearer ${KEY}`))).toBe('API_KEY_DISABLED');
      // The safety net counts from the last periodic refresh, so it comes anyway; one tick late at most.
      await jest.advanceTimersByTimeAsync(2_000);
      expect(fake.service.statesChangedWithin).toHaveBeenCalledTimes(2);
      expect(KEY_SAFETY_NET_MS + 1_000).toBeLessThan(10_000);
    });

    it('refreshes at once when the feed is lost, then as often as without a feed', async () => {
      feed.setLive(false);
      await jest.advanceTimersByTimeAsync(0);
      expect(fake.service.statesChangedWithin).toHaveBeenCalledTimes(1);
      await jest.advanceTimersByTimeAsync(KEY_REFRESH_INTERVAL_MS);
      expect(fake.service.statesChangedWithin).toHaveBeenCalledTimes(2);
    });
  });
});
