/**
 * Concurrent reads of one missing answer share the first one's outcome (one statement, one search
 * admission). A joiner's answer is at most one statement older: a cached answer's staleness.
 */
export class SingleFlight<V> {
  private readonly inFlight = new Map<string, Promise<V>>();

  run(key: string, read: () => Promise<V>): Promise<V> {
    const running = this.inFlight.get(key);
    if (running) return running;
    const started: Promise<V> = invoke(read).finally(() => {
      if (this.inFlight.get(key) === started) this.inFlight.delete(key);
    });
    this.inFlight.set(key, started);
    return started;
  }

  /** Later callers start new reads instead of joining the ones running now (which still finish). */
  forgetAll(): void {
    this.inFlight.clear();
  }

  /** Reads running now (for tests and metrics). */
  get size(): number {
    return this.inFlight.size;
  }
}

/** The read's promise, or its synchronous throw as a rejection, so every caller sees the same outcome. */
function invoke<V>(read: () => Promise<V>): Promise<V> {
  try {
    return read();
  } catch (error) {
    return Promise.reject(error);
  }
}
