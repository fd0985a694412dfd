import { FakeChangeFeed } from '../../test/support/fake-change-feed';
import type { CatalogStateRepository } from './catalog-state.repository';
import {
  CATALOG_STATE_LIVE_MAX_AGE_MS,
  CATALOG_STATE_MAX_AGE_MS,
  CATALOG_STATE_POLL_MS,
  CATALOG_STATE_SAFETY_NET_MS,
  CATALOG_STATE_TIMEOUT_MS,
  CatalogStateProvider,
} from './catalog-state.provider';

const row = (version: string) => ({
  catalogVersion: version,
  titleCount: 3,
  ingestedAt: new Date(0),
  enrichmentComplete: false,
});

/** A state repository whose reads settle when the test says. */
function controlledRepository() {
  const pending: { resolve: (state: unknown) => void; reject: (error: Error) => void }[] = [];
  const repository = {
    current: jest.fn(() => new Promise((resolve, reject) => pending.push({ resolve, reject }))),
  } as unknown as CatalogStateRepository & { current: jest.Mock };
  return { repository, pending };
}

describe('CatalogStateProvider', () => {
  afterEach(() => jest.useRealTimers());

  it('shares one query among concurrent readers and never answers from a finished one', async () => {
    const { repository, pending } = controlledRepository();
    const provider = new CatalogStateProvider(repository);
    const first = [provider.fresh(), provider.fresh(), provider.fresh()];
    expect(repository.current).toHaveBeenCalledTimes(1);
    pending[0].resolve(row('v1'));
    for (const reading of await Promise.all(first)) expect(reading.state.catalogVersion).toBe('v1');

    const next = provider.fresh();
    expect(repository.current).toHaveBeenCalledTimes(2);
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
    expect(repository.current).toHaveBeenCalledTimes(2);
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
    expect(repository.current).toHaveBeenCalledTimes(2);
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
    expect(repository.current).toHaveBeenCalledTimes(1);
    jest.advanceTimersByTime(1);
    const later = provider.current();
    expect(repository.current).toHaveBeenCalledTimes(2);
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
    const next = provider.current();
    expect(repository.current).toHaveBeenCalledTimes(3);
    pending[2].reject(new Error('connection refused'));
    await expect(next).rejects.toThrow('connection refused');
  });

  it(`reads every ${CATALOG_STATE_POLL_MS} ms while the application runs, one read at a time`, async () => {
    jest.useFakeTimers();
    const { repository, pending } = controlledRepository();
    const provider = new CatalogStateProvider(repository);
    provider.onApplicationBootstrap();
    try {
      jest.advanceTimersByTime(CATALOG_STATE_POLL_MS);
      expect(repository.current).toHaveBeenCalledTimes(1);
      // A read still running is joined, not repeated.
      jest.advanceTimersByTime(CATALOG_STATE_POLL_MS);
      expect(repository.current).toHaveBeenCalledTimes(1);
      pending[0].resolve(row('v1'));
      await jest.advanceTimersByTimeAsync(CATALOG_STATE_POLL_MS);
      expect(repository.current).toHaveBeenCalledTimes(2);
    } finally {
      provider.onApplicationShutdown();
    }
    jest.advanceTimersByTime(10 * CATALOG_STATE_POLL_MS);
    expect(repository.current).toHaveBeenCalledTimes(2);
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
    expect(repository.current).toHaveBeenCalledTimes(3);
    pending[1].resolve(row('v1'));
    await before;
    pending[2].resolve(row('v2'));
    expect((await after).state.catalogVersion).toBe('v2');
    expect((await provider.current()).state.catalogVersion).toBe('v2');
    expect(repository.current).toHaveBeenCalledTimes(3);
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
      expect(repository.current).toHaveBeenLastCalledWith(feed);
      pending[0].resolve(row('v1'));
      await jest.advanceTimersByTimeAsync(0);
      return { repository, pending, feed, provider };
    }

    it(`reads only every ${CATALOG_STATE_SAFETY_NET_MS} ms while live, on the feed, and trusts a reading meanwhile`, async () => {
      const { repository, pending, feed, provider } = await liveProvider();
      try {
        await jest.advanceTimersByTimeAsync(CATALOG_STATE_SAFETY_NET_MS - CATALOG_STATE_POLL_MS);
        expect((await provider.current()).state.catalogVersion).toBe('v1');
        expect(repository.current).toHaveBeenCalledTimes(1);
        await jest.advanceTimersByTimeAsync(CATALOG_STATE_POLL_MS);
        expect(repository.current).toHaveBeenCalledTimes(2);
        expect(repository.current).toHaveBeenLastCalledWith(feed);
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
        expect(repository.current).toHaveBeenCalledTimes(1);
        feed.notice('catalog');
        expect(repository.current).toHaveBeenCalledTimes(2);
        const answer = provider.current();
        expect(repository.current).toHaveBeenCalledTimes(2);
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
        expect(repository.current).toHaveBeenCalledTimes(2);
        expect(repository.current).toHaveBeenLastCalledWith();
        pending[1].resolve(row('v1'));
        await jest.advanceTimersByTimeAsync(CATALOG_STATE_POLL_MS);
        expect(repository.current).toHaveBeenCalledTimes(3);
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
        current: jest.fn(async (on?: unknown) => {
          if (on === feed) {
            feed.live = false; // as the real feed does on a failed statement
            throw new Error('Query read timeout');
          }
          return row('v1');
        }),
      } as unknown as CatalogStateRepository & { current: jest.Mock };
      const provider = new CatalogStateProvider(repository, feed);
      expect((await provider.fresh()).state.catalogVersion).toBe('v1');
      expect(repository.current.mock.calls).toEqual([[feed], []]);
    });

    it("checks the pool for /health even while the feed is live: the feed's session can outlive it", async () => {
      const feed = new FakeChangeFeed();
      feed.live = true;
      const repository = {
        current: jest.fn(async (on?: unknown) => {
          if (on === feed) return row('v1');
          throw new Error('the pool is closed');
        }),
      } as unknown as CatalogStateRepository & { current: jest.Mock };
      const provider = new CatalogStateProvider(repository, feed);
      expect((await provider.fresh()).state.catalogVersion).toBe('v1');
      await expect(provider.freshOnPool()).rejects.toThrow('the pool is closed');
      expect(repository.current.mock.calls).toEqual([[feed], []]);
      // A failed check is a failed read: nothing is trusted until one succeeds.
      expect(repository.current).toHaveBeenCalledTimes(2);
      await provider.current();
      expect(repository.current).toHaveBeenCalledTimes(3);
    });
  });
});
