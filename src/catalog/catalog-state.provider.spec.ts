import { FakeChangeFeed } from '../../test/support/fake-change-feed';
import { type KeysMarker, KeysMarkers } from '../auth/keys-marker';
import type { CatalogStateRepository } from './catalog-state.repository';
import {
  CATALOG_STATE_IDLE_AFTER_MS,
  CATALOG_STATE_IDLE_POLL_MS,
  CATALOG_STATE_LIVE_MAX_AGE_MS,
  CATALOG_STATE_MAX_AGE_MS,
  CATALOG_STATE_POLL_MS,
  CATALOG_STATE_SAFETY_NET_MS,
  CATALOG_STATE_TIMEOUT_MS,
  CatalogStateProvider,
} from './catalog-state.provider';

/** A state read (`CatalogStateRepository.read`) of catalog `version`, with the keys' marker when given. */
const row = (version: string, keysMarker: KeysMarker | null = null) => ({
  state: {
    catalogVersion: version,
    loadVersion: `${version}#1`,
    titleCount: 3,
    ingestedAt: new Date(0),
    enrichmentComplete: false,
  },
  keysMarker,
});

/** A state repository whose reads settle when the test says. */
function controlledRepository() {
  const pending: { resolve: (state: unknown) => void; reject: (error: Error) => void }[] = [];
  const repository = {
    read: jest.fn(() => new Promise((resolve, reject) => pending.push({ resolve, reject }))),
  } as unknown as CatalogStateRepository & { read: jest.Mock };
  return { repository, pending };
}

/** A state repository that answers every read at once, noting when each was sent. */
function answeringRepository() {
  const sentAt: number[] = [];
  const repository = {
    read: jest.fn(async () => {
      sentAt.push(Date.now());
      return row('v1');
    }),
  } as unknown as CatalogStateRepository & { read: jest.Mock };
  return { repository, sentAt };
}

describe('CatalogStateProvider', () => {
  afterEach(() => jest.useRealTimers());

  it('shares one query among concurrent readers and never answers from a finished one', async () => {
    const { repository, pending } = controlledRepository();
    const provider = new CatalogStateProvider(repository);
    const first = [provider.fresh(), provider.fresh(), provider.fresh()];
    expect(repository.read).toHaveBeenCalledTimes(1);
    pending[0].resolve(row('v1'));
    for (const reading of await Promise.all(first)) expect(reading.state.catalogVersion).toBe('v1');

    const next = provider.fresh();
    expect(repository.read).toHaveBeenCalledTimes(2);
    pending[1].resolve(row('v2'));
    expect((await next).state.catalogVersion).toBe('v2');
  });

  it('fails its readers when the query fails', async () => {
    const { repository, pending } = controlledRepository();
    const provider = new CatalogStateProvider(repository);
    const ok = provider.fresh();
    pending[0].resolve(row('v1'));
    await ok;
    const failing = [provider.fresh(), provider.fresh()];
    expect(repository.read).toHaveBeenCalledTimes(2);
    pending[1].reject(new Error('connection refused'));
    for (const reader of failing) await expect(reader).rejects.toThrow('connection refused');
  });

  it(`fails a read that takes longer than ${CATALOG_STATE_TIMEOUT_MS} ms, then reads again`, async () => {
    jest.useFakeTimers();
    const { repository, pending } = controlledRepository();
    const provider = new CatalogStateProvider(repository);
    const hanging = provider.fresh();
    jest.advanceTimersByTime(CATALOG_STATE_TIMEOUT_MS);
    await expect(hanging).rejects.toThrow(`exceeded ${CATALOG_STATE_TIMEOUT_MS} ms`);
    const again = provider.fresh();
    expect(repository.read).toHaveBeenCalledTimes(2);
    pending[1].resolve(row('v1'));
    expect((await again).state.catalogVersion).toBe('v1');
  });

  it('answers current() from a recent reading with no query, and reads again once it is too old', async () => {
    jest.useFakeTimers();
    const { repository, pending } = controlledRepository();
    const provider = new CatalogStateProvider(repository);
    const first = provider.current();
    pending[0].resolve(row('v1'));
    expect((await first).state.catalogVersion).toBe('v1');
    jest.advanceTimersByTime(CATALOG_STATE_MAX_AGE_MS - 1);
    expect((await provider.current()).state.catalogVersion).toBe('v1');
    expect(provider.trusted()?.state.catalogVersion).toBe('v1');
    expect(repository.read).toHaveBeenCalledTimes(1);
    jest.advanceTimersByTime(1);
    // trusted() answers exactly when current() needs no read.
    expect(provider.trusted()).toBeUndefined();
    expect(repository.read).toHaveBeenCalledTimes(1);
    const later = provider.current();
    expect(repository.read).toHaveBeenCalledTimes(2);
    pending[1].resolve(row('v2'));
    expect((await later).state.catalogVersion).toBe('v2');
  });

  it('after a failed read, current() waits for a read of its own (an outage fails it)', async () => {
    const { repository, pending } = controlledRepository();
    const provider = new CatalogStateProvider(repository);
    const ok = provider.fresh();
    pending[0].resolve(row('v1'));
    await ok;
    const failing = provider.fresh();
    pending[1].reject(new Error('connection refused'));
    await expect(failing).rejects.toThrow('connection refused');
    expect(provider.trusted()).toBeUndefined();
    const next = provider.current();
    expect(repository.read).toHaveBeenCalledTimes(3);
    pending[2].reject(new Error('connection refused'));
    await expect(next).rejects.toThrow('connection refused');
  });

  it('polls while the application runs, one read at a time, and stops at shutdown', async () => {
    jest.useFakeTimers();
    const { repository, pending } = controlledRepository();
    const provider = new CatalogStateProvider(repository);
    provider.onApplicationBootstrap();
    try {
      // A request asks: the process is busy, it polls every CATALOG_STATE_POLL_MS.
      const asked = provider.current();
      jest.advanceTimersByTime(100);
      expect(repository.read).toHaveBeenCalledTimes(1);
      // A read still running is joined, not repeated.
      jest.advanceTimersByTime(CATALOG_STATE_POLL_MS);
      expect(repository.read).toHaveBeenCalledTimes(1);
      pending[0].resolve(row('v1'));
      await asked;
      await jest.advanceTimersByTimeAsync(CATALOG_STATE_POLL_MS);
      expect(repository.read).toHaveBeenCalledTimes(2);
    } finally {
      provider.onApplicationShutdown();
    }
    jest.advanceTimersByTime(10 * CATALOG_STATE_POLL_MS);
    expect(repository.read).toHaveBeenCalledTimes(2);
  });

  it(`reads every ${CATALOG_STATE_POLL_MS} ms or a little more, so a request never waits for a read`, async () => {
    jest.useFakeTimers();
    const { repository, sentAt } = answeringRepository();
    const provider = new CatalogStateProvider(repository);
    provider.onApplicationBootstrap();
    try {
      await jest.advanceTimersByTimeAsync(100);
      // Requests every 10 ms for 10 s: each answered from the newest reading, no read of its own.
      for (let ms = 0; ms < 10_000; ms += 10) {
        await provider.current();
        await jest.advanceTimersByTimeAsync(10);
      }
    } finally {
      provider.onApplicationShutdown();
    }
    const gaps = sentAt.slice(1).map((at, i) => at - sentAt[i]);
    expect(gaps.length).toBeGreaterThanOrEqual(10);
    for (const gap of gaps) {
      expect(gap).toBeGreaterThanOrEqual(CATALOG_STATE_POLL_MS);
      // Sent early enough for the answer to arrive before the newest reading expires.
      expect(gap).toBeLessThanOrEqual(CATALOG_STATE_MAX_AGE_MS - 100);
    }
  });

  it(`polls only every ${CATALOG_STATE_IDLE_POLL_MS} ms while nobody asks; the first request then waits for a read`, async () => {
    jest.useFakeTimers({ now: 0 });
    const { repository, sentAt } = answeringRepository();
    const provider = new CatalogStateProvider(repository);
    provider.onApplicationBootstrap();
    try {
      await jest.advanceTimersByTimeAsync(20_000);
      const idleGaps = sentAt.slice(1).map((at, i) => at - sentAt[i]);
      expect(idleGaps.length).toBeGreaterThanOrEqual(3);
      for (const gap of idleGaps) expect(gap).toBeGreaterThanOrEqual(CATALOG_STATE_IDLE_POLL_MS);
      // The newest reading is too old for a request: it waits for a read of its own.
      const reads = repository.read.mock.calls.length;
      await provider.current();
      expect(repository.read).toHaveBeenCalledTimes(reads + 1);
      // Asked again within CATALOG_STATE_IDLE_AFTER_MS: the busy poll is back.
      const busyFrom = sentAt.length - 1;
      for (let ms = 0; ms < 3_000; ms += 100) {
        await provider.current();
        await jest.advanceTimersByTimeAsync(100);
      }
      const busyGaps = sentAt.slice(busyFrom + 1).map((at, i) => at - sentAt[busyFrom + i]);
      expect(busyGaps.length).toBeGreaterThanOrEqual(3);
      for (const gap of busyGaps) expect(gap).toBeLessThanOrEqual(CATALOG_STATE_MAX_AGE_MS - 100);
      // Requests that need no reading (cache misses read the version with their data) keep it busy.
      const missesFrom = sentAt.length;
      for (let ms = 0; ms < 3_000; ms += 100) {
        provider.noteDemand();
        await jest.advanceTimersByTimeAsync(100);
      }
      expect(sentAt.length - missesFrom).toBeGreaterThanOrEqual(3);
      // Nobody asks for CATALOG_STATE_IDLE_AFTER_MS: slow again.
      await jest.advanceTimersByTimeAsync(CATALOG_STATE_IDLE_AFTER_MS);
      const quietFrom = sentAt.length;
      await jest.advanceTimersByTimeAsync(3 * CATALOG_STATE_IDLE_POLL_MS);
      expect(sentAt.length - quietFrom).toBeLessThanOrEqual(3);
    } finally {
      provider.onApplicationShutdown();
    }
  });

  it('passes on the keys marker a read brings, with the time the read was sent', async () => {
    jest.useFakeTimers({ now: 10_000 });
    const { repository, pending } = controlledRepository();
    const markers = new KeysMarkers();
    const observed: [KeysMarker, number][] = [];
    markers.subscribe((marker, sentAt) => observed.push([marker, sentAt]));
    const provider = new CatalogStateProvider(repository, undefined, markers);
    const first = provider.fresh();
    jest.advanceTimersByTime(5);
    pending[0].resolve(row('v1', { count: 2, digest: '7' }));
    await first;
    expect(observed).toEqual([[{ count: 2, digest: '7' }, 10_000]]);
    // A read on a replica brings none.
    const second = provider.fresh();
    pending[1].resolve(row('v1'));
    await second;
    expect(observed).toHaveLength(1);
  });

  it('after invalidate(), current() waits for a read sent after it, not one in flight before it', async () => {
    const { repository, pending } = controlledRepository();
    const provider = new CatalogStateProvider(repository);
    const first = provider.fresh();
    pending[0].resolve(row('v1'));
    await first;
    const before = provider.fresh(); // in flight when the catalog changes
    provider.invalidate();
    const after = provider.current();
    expect(repository.read).toHaveBeenCalledTimes(3);
    pending[1].resolve(row('v1'));
    await before;
    pending[2].resolve(row('v2'));
    expect((await after).state.catalogVersion).toBe('v2');
    expect((await provider.current()).state.catalogVersion).toBe('v2');
    expect(repository.read).toHaveBeenCalledTimes(3);
  });

  describe('with a change feed', () => {
    /** A provider whose feed is live, bootstrapped, with a first reading (v1) taken on the feed. */
    async function liveProvider() {
      jest.useFakeTimers();
      const { repository, pending } = controlledRepository();
      const feed = new FakeChangeFeed();
      const provider = new CatalogStateProvider(repository, feed);
      provider.onApplicationBootstrap();
      feed.setLive(true);
      expect(repository.read).toHaveBeenLastCalledWith(feed);
      pending[0].resolve(row('v1'));
      await jest.advanceTimersByTimeAsync(0);
      return { repository, pending, feed, provider };
    }

    it(`reads only every ${CATALOG_STATE_SAFETY_NET_MS} ms while live, on the feed, and trusts a reading meanwhile`, async () => {
      const { repository, pending, feed, provider } = await liveProvider();
      try {
        await jest.advanceTimersByTimeAsync(CATALOG_STATE_SAFETY_NET_MS - CATALOG_STATE_POLL_MS);
        expect((await provider.current()).state.catalogVersion).toBe('v1');
        expect(repository.read).toHaveBeenCalledTimes(1);
        await jest.advanceTimersByTimeAsync(CATALOG_STATE_POLL_MS);
        expect(repository.read).toHaveBeenCalledTimes(2);
        expect(repository.read).toHaveBeenLastCalledWith(feed);
        // A late safety-net read holds no request until the live trust runs out.
        await jest.advanceTimersByTimeAsync(CATALOG_STATE_LIVE_MAX_AGE_MS - CATALOG_STATE_SAFETY_NET_MS - 1);
        expect((await provider.current()).state.catalogVersion).toBe('v1');
        pending[1].resolve(row('v1'));
      } finally {
        provider.onApplicationShutdown();
      }
    });

    it('a catalog notice starts a read at once, and no earlier reading answers after it', async () => {
      const { repository, pending, feed, provider } = await liveProvider();
      try {
        feed.notice('keys');
        expect(repository.read).toHaveBeenCalledTimes(1);
        feed.notice('catalog');
        expect(repository.read).toHaveBeenCalledTimes(2);
        const answer = provider.current();
        expect(repository.read).toHaveBeenCalledTimes(2);
        pending[1].resolve(row('v2'));
        expect((await answer).state.catalogVersion).toBe('v2');
      } finally {
        provider.onApplicationShutdown();
      }
    });

    it('when the feed is lost it reads at once on its pool, then polls and trusts as without a feed', async () => {
      const { repository, pending, feed, provider } = await liveProvider();
      try {
        await jest.advanceTimersByTimeAsync(CATALOG_STATE_MAX_AGE_MS);
        feed.setLive(false);
        expect(repository.read).toHaveBeenCalledTimes(2);
        expect(repository.read).toHaveBeenLastCalledWith();
        // A request asks (it joins that read), so the process polls at the busy rate.
        void provider.current().catch(() => undefined);
        expect(repository.read).toHaveBeenCalledTimes(2);
        pending[1].resolve(row('v1'));
        await jest.advanceTimersByTimeAsync(CATALOG_STATE_POLL_MS);
        expect(repository.read).toHaveBeenCalledTimes(3);
        pending[2].resolve(row('v2'));
        await jest.advanceTimersByTimeAsync(CATALOG_STATE_MAX_AGE_MS);
        // The poll's read is in flight and the newest reading is too old to trust without the feed.
        const answer = provider.current();
        pending.at(-1)!.resolve(row('v3'));
        expect((await answer).state.catalogVersion).toBe('v3');
      } finally {
        provider.onApplicationShutdown();
      }
    });

    it("a read that fails on the feed's session is answered by the pool", async () => {
      jest.useFakeTimers();
      const feed = new FakeChangeFeed();
      feed.live = true;
      const repository = {
        read: jest.fn(async (on?: unknown) => {
          if (on === feed) {
            feed.live = false; // as the real feed does on a failed statement
            throw new Error('Query read timeout');
          }
          return row('v1');
        }),
      } as unknown as CatalogStateRepository & { read: jest.Mock };
      const provider = new CatalogStateProvider(repository, feed);
      expect((await provider.fresh()).state.catalogVersion).toBe('v1');
      expect(repository.read.mock.calls).toEqual([[feed], []]);
    });

    it("checks the pool for /health even while the feed is live: the feed's session can outlive it", async () => {
      const feed = new FakeChangeFeed();
      feed.live = true;
      const repository = {
        read: jest.fn(async (on?: unknown) => {
          if (on === feed) return row('v1');
          throw new Error('the pool is closed');
        }),
      } as unknown as CatalogStateRepository & { read: jest.Mock };
      const provider = new CatalogStateProvider(repository, feed);
      expect((await provider.fresh()).state.catalogVersion).toBe('v1');
      await expect(provider.freshOnPool()).rejects.toThrow('the pool is closed');
      expect(repository.read.mock.calls).toEqual([[feed], []]);
      // A failed check is a failed read: nothing is trusted until one succeeds.
      expect(repository.read).toHaveBeenCalledTimes(2);
      await provider.current();
      expect(repository.read).toHaveBeenCalledTimes(3);
    });

    it("does not let /health's pool read and a feed read join each other", async () => {
      const feed = new FakeChangeFeed();
      feed.live = true;
      const { repository, pending } = controlledRepository();
      const provider = new CatalogStateProvider(repository, feed);
      const reads = [provider.fresh(), provider.freshOnPool(), provider.fresh(), provider.freshOnPool()];
      expect(repository.read.mock.calls).toEqual([[feed], []]);
      pending[0].resolve(row('v1'));
      pending[1].resolve(row('v2'));
      expect((await Promise.all(reads)).map((reading) => reading.state.catalogVersion)).toEqual([
        'v1',
        'v2',
        'v1',
        'v2',
      ]);
    });
  });
});
