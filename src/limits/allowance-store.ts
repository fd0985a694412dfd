/** A block of a window's allowance granted to this replica by the shared counter. */
export interface Reservation {
  /** How many requests this replica may accept from the block (0: the window is exhausted). */
  granted: number;
  /** Everything reserved in the window by every replica, this block included. */
  total: number;
  /** Milliseconds until the window ends, on the store's clock. */
  msLeft: number;
  /** Identifies the window: a different value means the counter started a new one. */
  window: string;
  /** Gives unspent allowance back to this window (nothing happens once it has ended). */
  release(amount: number): Promise<void>;
}

/** A window as the shared counter holds it, for reading usage. */
export type WindowState = Pick<Reservation, 'total' | 'msLeft' | 'window'>;

/**
 * A window another store counted (the minute moving between Redis and PostgreSQL): the store counts at
 * least `total` in its own window, and a window it starts for it ends when this one does.
 */
export type CarriedWindow = Pick<Reservation, 'total' | 'msLeft'>;

/**
 * A counter shared by the replicas. `reserve` is one atomic step: it starts a new window of `ttlMs`
 * when the last one has ended, then grants up to `want` of what is left under `limit`.
 */
export interface AllowanceStore {
  reserve(
    key: string,
    want: number,
    limit: number,
    ttlMs: number,
    carried?: CarriedWindow,
  ): Promise<Reservation>;
  /** The counter's open window, or null when none is (the next request starts one). */
  peek(key: string): Promise<WindowState | null>;
  close(): Promise<void>;
}
