import { RESERVATION, reservationSize, shouldReserveAhead } from './limits-policy';

describe('reservationSize', () => {
  const demand = {
    limit: 1_000_000,
    reserved: 0,
    waiting: 0,
    lastBlock: 0,
    previousWindowBlock: 0,
    msSinceLastRefill: 60_000,
    spentSinceLastRefill: 0,
    msSpendingSinceLastRefill: 0,
  };
  const recent = RESERVATION.busyKeyMs - 1;
  const slow = RESERVATION.busyKeyMs + 1;
  const spending = (spent: number, ms: number) => ({
    ...demand,
    lastBlock: 8,
    spentSinceLastRefill: spent,
    msSpendingSinceLastRefill: ms,
  });

  it('starts with one request, or as many as are waiting', () => {
    expect(reservationSize(demand)).toBe(1);
    expect(reservationSize({ ...demand, waiting: 15 })).toBe(15);
  });

  it('sizes a block to last targetBlockMs at the rate the last one was spent, growing or shrinking', () => {
    // 1,000 a second for 2 s: 4 s of that rate.
    expect(reservationSize(spending(2_000, 2_000))).toBe(4_000);
    // 1 a second for 8 s: 4 s of it.
    expect(reservationSize(spending(8, 8_000))).toBe(4);
    expect(reservationSize(spending(1, 8_000))).toBe(1);
  });

  it('measures a rate over at least minRateSampleMs, so a burst grows a block 16× a step at most', () => {
    const growth = RESERVATION.targetBlockMs / RESERVATION.minRateSampleMs;
    expect(growth).toBe(16);
    expect(reservationSize(spending(4, 1))).toBe(4 * growth);
    expect(reservationSize(spending(64, 17))).toBe(64 * growth);
  });

  it('asks for what is waiting when nothing was spent since the last block', () => {
    expect(reservationSize({ ...spending(0, 0), waiting: 3 })).toBe(3);
    expect(reservationSize(spending(-2, 100))).toBe(1);
  });

  it('starts a busy key’s new window at its last block size, an idle one’s at one request', () => {
    const busy = { ...demand, previousWindowBlock: 4_096 };
    expect(reservationSize({ ...busy, msSinceLastRefill: recent })).toBe(4_096);
    expect(reservationSize({ ...busy, msSinceLastRefill: RESERVATION.busyKeyMs })).toBe(4_096);
    expect(reservationSize({ ...busy, msSinceLastRefill: slow })).toBe(1);
    expect(reservationSize({ ...busy, limit: 100, msSinceLastRefill: recent })).toBe(25);
  });

  it('never exceeds the largest block, so a crash costs a key at most that much', () => {
    expect(reservationSize(spending(RESERVATION.maxBlock, 1))).toBe(RESERVATION.maxBlock);
    expect(reservationSize({ ...demand, waiting: 50_000 })).toBe(RESERVATION.maxBlock);
  });

  it('shrinks near the limit to a quarter of what is left, down to single requests', () => {
    const hot = spending(500, 1);
    expect(reservationSize({ ...hot, limit: 10, reserved: 0 })).toBe(3);
    expect(reservationSize({ ...hot, limit: 10, reserved: 9 })).toBe(1);
    expect(reservationSize({ ...hot, limit: 1_000, reserved: 996 })).toBe(1);
    expect(reservationSize({ ...hot, limit: 1_000, reserved: 600 })).toBe(100);
  });

  it('still asks for one when the window looks exhausted (another replica may have returned some)', () => {
    expect(reservationSize({ ...demand, limit: 10, reserved: 10, waiting: 3 })).toBe(1);
    expect(reservationSize({ ...demand, limit: 10, reserved: 12 })).toBe(1);
  });
});

describe('shouldReserveAhead', () => {
  it('reserves a hot key’s next block when a quarter of the current one is left', () => {
    expect(shouldReserveAhead(26, 100)).toBe(false);
    expect(shouldReserveAhead(25, 100)).toBe(true);
    expect(shouldReserveAhead(0, 100)).toBe(true);
  });

  it('never for small blocks: slow keys and windows near their limit reserve only when they need to', () => {
    expect(shouldReserveAhead(0, 1)).toBe(false);
    expect(shouldReserveAhead(0, 3)).toBe(false);
    expect(shouldReserveAhead(1, 4)).toBe(true);
  });
});
