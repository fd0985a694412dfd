/** A PostgreSQL WAL position (`pg_lsn` as text, `16/B374D848`) as a number that orders positions. */
export function parseLsn(text: string): bigint {
  const [high, low] = text.split('/');
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`);
}

/** How long the primary's WAL positions are remembered: lags beyond it all read as at least this. */
const HISTORY_MS = 10_000;

/**
 * The primary's WAL position over the last seconds, to tell how far behind a replica replays in
 * time rather than bytes: a replica that has not replayed a position the primary had reached at
 * time t is at least (now − t) behind. An idle primary writes no WAL, so a replica with nothing to
 * replay never reads as lagging, however old its last replayed transaction is.
 */
export class PrimaryWalHistory {
  private readonly samples: Array<{ lsn: bigint; at: number }> = [];

  /** The primary's position, as a read answered at `answeredAt` found it (it had reached it by then). */
  record(lsn: bigint, answeredAt: number): void {
    this.samples.push({ lsn, at: answeredAt });
    while (this.samples.length > 0 && this.samples[0].at < answeredAt - HISTORY_MS) this.samples.shift();
  }

  /**
   * The least the replica can be behind, in ms: `replayed` is its replay position read by a query
   * sent at `sentAt` (it had replayed at least that much by then). 0 when it has replayed every
   * position recorded before `sentAt`.
   */
  lagMs(replayed: bigint, sentAt: number): number {
    const missed = this.samples.find((sample) => sample.lsn > replayed && sample.at <= sentAt);
    return missed === undefined ? 0 : sentAt - missed.at;
  }
}
