/**
 * Concurrent requests for the same missing answer share one read: the first starts it, the others
 * arriving while it runs wait for it and get its outcome (its answer or its error). A popular query
 * after a new catalog (every cache empty) or a burst for one page costs one statement, not one per
 * request, and needs one search admission, not one per request.
 *
 * A joiner may get an answer read from the catalog that was live when the read started, at most one
 * statement's duration before the joiner arrived: the same staleness a cached answer has, and still
 * wholly one catalog version.
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
