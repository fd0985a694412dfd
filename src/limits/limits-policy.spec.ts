import { RESERVATION, reservationSize, shouldReserveAhead } from './limits-policy';

describe('reservationSize', () => {
  const demand = {
    limit: 1_000_000,
    reserved: 0,
    waiting: 0,
    lastBlock: 0,
    previousWindowBlock: 0,
    msSinceLastRefill: 60_000,
  };
  const fast = RESERVATION.fastRefillMs - 1;
  const steady = (RESERVATION.fastRefillMs + RESERVATION.slowRefillMs) / 2;
  const slow = RESERVATION.slowRefillMs + 1;

  it('starts with one request, or as many as are waiting', () => {
    expect(reservationSize(demand)).toBe(1);
    expect(reservationSize({ ...demand, waiting: 15 })).toBe(15);
  });

  it('doubles while blocks go fast, halves when they go slowly, keeps a steady size', () => {
    expect(reservationSize({ ...demand, lastBlock: 8, msSinceLastRefill: fast })).toBe(16);
    expect(reservationSize({ ...demand, lastBlock: 8, msSinceLastRefill: slow })).toBe(4);
    expect(reservationSize({ ...demand, lastBlock: 8, msSinceLastRefill: steady })).toBe(8);
    expect(reservationSize({ ...demand, lastBlock: 1, msSinceLastRefill: slow })).toBe(1);
  });

  it('starts a busy key’s new window at its last block size, an idle one’s at one request', () => {
    const busy = { ...demand, previousWindowBlock: 4_096 };
    expect(reservationSize({ ...busy, msSinceLastRefill: fast })).toBe(4_096);
    expect(reservationSize({ ...busy, msSinceLastRefill: RESERVATION.slowRefillMs })).toBe(4_096);
    expect(reservationSize({ ...busy, msSinceLastRefill: slow })).toBe(1);
    expect(reservationSize({ ...busy, limit: 100, msSinceLastRefill: fast })).toBe(25);
  });

  it('never exceeds the largest block, so a crash costs a key at most that much', () => {
    expect(reservationSize({ ...demand, lastBlock: RESERVATION.maxBlock, msSinceLastRefill: 1 })).toBe(
      RESERVATION.maxBlock,
    );
    expect(reservationSize({ ...demand, waiting: 50_000 })).toBe(RESERVATION.maxBlock);
  });

  it('shrinks near the limit to a quarter of what is left, down to single requests', () => {
    const hot = { ...demand, lastBlock: 500, msSinceLastRefill: 1 };
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
