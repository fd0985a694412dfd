import type { AllowanceStore, Reservation } from './allowance-store';
import { ReplicaAllowances } from './replica-allowances';
import { RESERVATION } from './limits-policy';

const MINUTE_TTL_MS = 60_000;

/** A shared counter as the PostgreSQL and Redis stores keep it, on a clock the test controls. */
class FakeStore implements AllowanceStore {
  readonly windows = new Map<string, { id: string; reserved: number; endsAt: number }>();
  readonly reserves: Array<{ key: string; want: number }> = [];
  failNext: Error | null = null;
  private nextId = 0;

  constructor(private readonly clock: () => number) {}

  async reserve(key: string, want: number, limit: number, ttlMs: number): Promise<Reservation> {
    this.reserves.push({ key, want });
    if (this.failNext) {
      const failure = this.failNext;
      this.failNext = null;
      throw failure;
    }
    const now = this.clock();
    let window = this.windows.get(key);
    if (!window || window.endsAt <= now) {
      window = { id: String(this.nextId++), reserved: 0, endsAt: now + ttlMs };
      this.windows.set(key, window);
    }
    const granted = Math.max(0, Math.min(want, limit - window.reserved));
    window.reserved += granted;
    const current = window;
    return {
      granted,
      total: current.reserved,
      msLeft: current.endsAt - now,
      window: current.id,
      release: async (amount) => {
        if (this.windows.get(key) === current && current.endsAt > this.clock()) current.reserved -= amount;
      },
    };
  }

  async peek(key: string) {
    const window = this.windows.get(key);
    if (!window || window.endsAt <= this.clock()) return null;
    return { total: window.reserved, msLeft: window.endsAt - this.clock(), window: window.id };
  }

  reserved(key: string): number {
    return this.windows.get(key)?.reserved ?? 0;
  }

  async close(): Promise<void> {}
}

describe('ReplicaAllowances', () => {
  let now: number;
  const clock = () => now;
  let minute: FakeStore;
  let month: FakeStore;
  let storage: ReplicaAllowances;

  beforeEach(() => {
    now = Date.parse('2026-11-30T23:59:00.000Z');
    minute = new FakeStore(clock);
    month = new FakeStore(clock);
    storage = new ReplicaAllowances({ minute, month }, clock);
  });
  afterEach(() => storage.onModuleDestroy());

  const hit = (limit: number, name = 'minute', key = 'minute:k1', ttl = MINUTE_TTL_MS) =>
    storage.increment(key, ttl, limit, ttl, name);
  const accepted = async (count: number, limit: number, name = 'minute', key = `${name}:k1`) => {
    const records = await Promise.all(Array.from({ length: count }, () => hit(limit, name, key)));
    return records.filter((record) => !record.isBlocked).length;
  };

  it('accepts exactly the limit, then refuses until the window ends', async () => {
    expect(await accepted(5, 3)).toBe(3);
    const refused = await hit(3);
    expect(refused).toMatchObject({ isBlocked: true, timeToExpire: 60, timeToBlockExpire: 60 });
    expect(minute.reserved('minute:k1')).toBe(3);
  });

  it('starts a new window at the minute edge and not a millisecond before', async () => {
    expect(await accepted(3, 3)).toBe(3);
    now += MINUTE_TTL_MS - 1;
    expect((await hit(3)).isBlocked).toBe(true);
    now += 1;
    expect(await accepted(4, 3)).toBe(3);
  });

  it('resets the month at 00:00:00 UTC on the first, with the ttl it is given', async () => {
    const ttl = Date.parse('2026-12-01T00:00:00.000Z') - now;
    const monthHit = () => storage.increment('month:k1', ttl, 2, ttl, 'month');
    expect((await monthHit()).isBlocked).toBe(false);
    expect((await monthHit()).isBlocked).toBe(false);
    expect(await monthHit()).toMatchObject({ isBlocked: true, timeToExpire: 60 });
    now = Date.parse('2026-12-01T00:00:00.000Z');
    const next = Date.parse('2027-01-01T00:00:00.000Z') - now;
    expect((await storage.increment('month:k1', next, 2, next, 'month')).isBlocked).toBe(false);
  });

  it('spends a reserved block in memory: a burst costs a few reservations, not one per request', async () => {
    expect(await accepted(200, 1_000_000)).toBe(200);
    expect(minute.reserves.length).toBeLessThanOrEqual(3);
    for (let i = 0; i < 20; i++) await hit(1_000_000);
    expect(minute.reserves.length).toBeLessThanOrEqual(5);
  });

  it('sizes blocks by the rate they are spent at: 5 s at 2,000 a second costs a handful of reservations', async () => {
    jest.useFakeTimers({ now });
    const paced = new ReplicaAllowances({ minute, month }, clock);
    const wants = () => minute.reserves.map((reservation) => reservation.want);
    const run = async (seconds: number) => {
      for (let ms = 0; ms < seconds * 1_000; ms++) {
        await paced.increment('minute:k1', MINUTE_TTL_MS, 1_000_000, MINUTE_TTL_MS, 'minute');
        await paced.increment('minute:k1', MINUTE_TTL_MS, 1_000_000, MINUTE_TTL_MS, 'minute');
        now += 1;
      }
    };
    try {
      await run(5);
      // 1 request, then up to 16× a step to 4 s of the rate (8,000), then one block every 4 s.
      expect(wants()).toEqual([1, 16, 192, 2_368, 8_000, 8_000]);
      // Idle for 10 s (the block goes back after 1 s); the next burst starts from the rate the last
      // block was spent at, not from one request and not diluted by the pause.
      now += 10_000;
      await jest.advanceTimersByTimeAsync(10_000);
      const before = wants().length;
      await run(5);
      const afterPause = wants().slice(before);
      expect(afterPause).toHaveLength(2);
      for (const want of afterPause) expect(Math.abs(want - 8_000)).toBeLessThanOrEqual(10);
    } finally {
      await paced.onModuleDestroy();
      jest.useRealTimers();
    }
  });

  it('starts a busy key’s next window with the block size it had reached, not with one request', async () => {
    const windowEnd = now + MINUTE_TTL_MS;
    while (now < windowEnd - 100) {
      for (let i = 0; i < 50; i++) await hit(1_000_000);
      now += 100;
    }
    const reached = minute.reserves.at(-1)!.want;
    expect(reached).toBeGreaterThan(64);
    now = windowEnd;
    const before = minute.reserves.length;
    await hit(1_000_000);
    expect(minute.reserves[before].want).toBe(reached);
  });

  it('counts a reserved block as used at once: the shared counter is never behind what was accepted', async () => {
    await accepted(10, 1_000_000);
    await hit(1_000_000);
    expect(minute.reserved('minute:k1')).toBeGreaterThanOrEqual(11);
  });

  it('refuses exactly when the quota is reached inside a block, and never past it', async () => {
    // The blocks taken by two replicas: this one holds some, the other took the rest.
    const other = new ReplicaAllowances({ minute, month }, clock);
    try {
      const mine = await accepted(4, 10, 'month');
      const theirs = await Promise.all(
        Array.from({ length: 20 }, () => other.increment('month:k1', 1e9, 10, 1e9, 'month')),
      );
      const rest = await accepted(20, 10, 'month');
      expect(mine + theirs.filter((record) => !record.isBlocked).length + rest).toBe(10);
      expect(month.reserved('month:k1')).toBe(10);
    } finally {
      await other.onModuleDestroy();
    }
  });

  it('keeps counters per key and per throttler name', async () => {
    expect(await accepted(3, 2, 'minute', 'minute:k1')).toBe(2);
    expect(await accepted(3, 2, 'minute', 'minute:k2')).toBe(2);
    expect(await accepted(3, 2, 'month', 'month:k1')).toBe(2);
    expect(minute.reserved('minute:k1')).toBe(2);
    expect(month.reserved('month:k1')).toBe(2);
  });

  it('asks an exhausted window again only after a pause, then takes what another replica returned', async () => {
    expect(await accepted(3, 3)).toBe(3);
    expect(await accepted(50, 3)).toBe(0);
    const asked = minute.reserves.length;
    expect(await accepted(50, 3)).toBe(0);
    expect(minute.reserves.length).toBe(asked);
    minute.windows.get('minute:k1')!.reserved = 1;
    now += RESERVATION.exhaustedRecheckMs;
    expect(await accepted(5, 3)).toBe(2);
  });

  it('returns allowance it has not touched for a while, and everything it holds at shutdown', async () => {
    await accepted(150, 1_000_000);
    await hit(1_000_000);
    expect(minute.reserved('minute:k1')).toBeGreaterThan(151);
    now += RESERVATION.idleReleaseMs;
    jest.useFakeTimers({ now });
    try {
      const idle = new ReplicaAllowances({ minute, month }, clock);
      await idle.increment('minute:k2', MINUTE_TTL_MS, 100, MINUTE_TTL_MS, 'minute');
      await idle.increment('minute:k2', MINUTE_TTL_MS, 100, MINUTE_TTL_MS, 'minute');
      expect(minute.reserved('minute:k2')).toBeGreaterThanOrEqual(2);
      now += RESERVATION.idleReleaseMs;
      await jest.advanceTimersByTimeAsync(1_000);
      expect(minute.reserved('minute:k2')).toBe(2);
      await idle.onModuleDestroy();
    } finally {
      jest.useRealTimers();
    }
    await storage.onModuleDestroy();
    expect(minute.reserved('minute:k1')).toBe(151);
  });

  it('passes a store failure to the waiting requests, and asks again on the next one', async () => {
    minute.failNext = new Error('database down');
    await expect(hit(10)).rejects.toThrow('database down');
    expect((await hit(10)).isBlocked).toBe(false);
  });

  it('reports a window as used by everyone, less what this replica still holds', async () => {
    expect(await storage.countedWindow('minute:k1', 'minute')).toBeNull();
    expect(storage.localWindow('minute:k1')).toBeNull();
    await accepted(150, 1_000_000);
    await hit(1_000_000);
    expect(minute.reserved('minute:k1')).toBeGreaterThan(151);
    expect(await storage.countedWindow('minute:k1', 'minute')).toEqual({ used: 151, msLeft: MINUTE_TTL_MS });
    expect(storage.localWindow('minute:k1')).toEqual({ used: 151, msLeft: MINUTE_TTL_MS });
    minute.windows.get('minute:k1')!.reserved += 40; // another replica's block
    expect(await storage.countedWindow('minute:k1', 'minute')).toMatchObject({ used: 191 });
  });

  it('refuses to count for a throttler it has no store for', async () => {
    await expect(storage.increment('day:k1', 1, 1, 1, 'day')).rejects.toThrow('"day"');
  });
});
