/** A PostgreSQL WAL position (`pg_lsn` as text, `16/B374D848`) as a number that orders positions. */
export function parseLsn(text: string): bigint {
  const [high, low] = text.split('/');
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`);
}

/** How long the primary's WAL positions are remembered: lags beyond it all read as at least this. */
const HISTORY_MS = 10_000;

/**
 * The primary's recent WAL positions, to measure replica lag in time, not bytes; a replica with
 * nothing to replay never reads as lagging, however old its last transaction.
 */
export class PrimaryWalHistory {
  private readonly samples: Array<{ lsn: bigint; at: number }> = [];

  /** The primary's position, as a read answered at `answeredAt` found it (it had reached it by then). */
  record(lsn: bigint, answeredAt: number): void {
    this.samples.push({ lsn, at: answeredAt });
    while (this.samples.length > 0 && this.samples[0].at < answeredAt - HISTORY_MS) this.samples.shift();
  }

  /** The least the replica can be behind, in ms, given `replayed` as read by a query sent at `sentAt`. */
  lagMs(replayed: bigint, sentAt: number): number {
    const missed = this.samples.find((sample) => sample.lsn > replayed && sample.at <= sentAt);
    return missed === undefined ? 0 : sentAt - missed.at;
  }
}
