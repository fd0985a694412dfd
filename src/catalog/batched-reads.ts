/** Reads many keys in one statement; answers in the order of `keys`. */
export type ReadMany<K, V> = (keys: K[]) => Promise<V[]>;

interface QueuedRead<K, V> {
  key: K;
  resolve: (value: V) => void;
  reject: (error: unknown) => void;
}

/**
 * Reads of single keys that go to the database together: at most `maxInFlight` statements run at
 * once, and the keys asked while they run wait and go in the next one (up to `maxBatch` keys each).
 * A lone read starts at once; under load, N concurrent misses cost about N / maxBatch statements
 * instead of N, and the database plans one index lookup per key either way. A failed statement
 * fails every read of its batch.
 *
 * No read waits in the queue longer than `maxWaitMs`: when the running statements have not
 * finished by then (a slow or partitioned database), the queued keys go in a statement of their own
 * anyway, so a read's time stays its own statement's bound plus at most `maxWaitMs`, never the
 * statements ahead of it as well.
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
