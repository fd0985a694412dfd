import { PrimaryWalHistory, parseLsn } from './replication-lag';

describe('parseLsn', () => {
  it('orders WAL positions across the high word', () => {
    expect(parseLsn('0/16B3748')).toBe(0x16b3748n);
    expect(parseLsn('1/0') > parseLsn('0/FFFFFFFF')).toBe(true);
    expect(parseLsn('16/B374D848')).toBe((0x16n << 32n) + 0xb374d848n);
  });
});

describe('PrimaryWalHistory', () => {
  it('reads a replica that replayed every recorded position as not behind', () => {
    const history = new PrimaryWalHistory();
    history.record(100n, 1_000);
    history.record(200n, 2_000);
    expect(history.lagMs(200n, 2_100)).toBe(0);
    expect(history.lagMs(250n, 2_100)).toBe(0);
  });

  it('measures the lag from the oldest position the replica has not replayed', () => {
    const history = new PrimaryWalHistory();
    history.record(100n, 1_000);
    history.record(200n, 2_000);
    history.record(300n, 3_000);
    expect(history.lagMs(150n, 3_500)).toBe(1_500);
    expect(history.lagMs(50n, 3_500)).toBe(2_500);
  });

  it('ignores positions recorded after the replica was asked', () => {
    const history = new PrimaryWalHistory();
    history.record(100n, 1_000);
    history.record(200n, 2_000);
    expect(history.lagMs(100n, 1_500)).toBe(0);
  });

  it('reads an idle primary (no new WAL) as nothing to replay', () => {
    const history = new PrimaryWalHistory();
    for (let at = 0; at <= 20_000; at += 1_000) history.record(500n, at);
    expect(history.lagMs(500n, 20_100)).toBe(0);
  });

  it('forgets positions older than its window, which bounds the lag it can report', () => {
    const history = new PrimaryWalHistory();
    for (let at = 0; at <= 30_000; at += 1_000) history.record(BigInt(at), at);
    expect(history.lagMs(-1n, 30_000)).toBe(10_000);
  });
});
