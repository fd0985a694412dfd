/** Reads many keys in one statement; answers in the order of `keys`. */
export type ReadMany<K, V> = (keys: K[]) => Promise<V[]>;

interface QueuedRead<K, V> {
  key: K;
  resolve: (value: V) => void;
  reject: (error: unknown) => void;
}

/**
 * Single-key reads batched: at most `maxInFlight` statements, keys asked meanwhile go in the next.
 * A queued key never waits past `maxWaitMs`, so a slow database does not stack statement deadlines.
 */
export class BatchedReads<K, V> {
  private readonly queue: Array<QueuedRead<K, V>> = [];
  private inFlight = 0;
  private queueTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly readMany: ReadMany<K, V>,
    private readonly maxInFlight: number,
    private readonly maxBatch: number,
    private readonly maxWaitMs: number,
  ) {}

  read(key: K): Promise<V> {
    return new Promise<V>((resolve, reject) => {
      this.queue.push({ key, resolve, reject });
      this.startBatches();
    });
  }

  private startBatches(): void {
    while (this.inFlight < this.maxInFlight && this.queue.length > 0) this.startBatch();
    this.boundTheWait();
  }

  private startBatch(): void {
    this.inFlight++;
    void this.readBatch(this.queue.splice(0, this.maxBatch));
  }

  /** While keys wait, a timer starts them after `maxWaitMs` whether or not a statement finished. */
  private boundTheWait(): void {
    if (this.queue.length === 0) {
      clearTimeout(this.queueTimer);
      this.queueTimer = undefined;
      return;
    }
    this.queueTimer ??= setTimeout(() => {
      this.queueTimer = undefined;
      if (this.queue.length > 0) this.startBatch();
      this.boundTheWait();
    }, this.maxWaitMs).unref();
  }

  /** Never rejects: the outcome goes to the batch's reads, then the next batch starts. */
  private async readBatch(batch: Array<QueuedRead<K, V>>): Promise<void> {
    try {
      const values = await this.readMany(batch.map((read) => read.key));
      batch.forEach((read, index) => read.resolve(values[index]));
    } catch (error) {
      for (const read of batch) read.reject(error);
    } finally {
      this.inFlight--;
      this.startBatches();
    }
  }
}
