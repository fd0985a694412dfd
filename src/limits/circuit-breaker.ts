/** How often an open circuit tries the service again. */
const PROBE_INTERVAL_MS = 250;

/**
 * The first failure opens the circuit (callers skip the dependency at once); one background probe
 * every 250 ms closes it on success.
 */
export class CircuitBreaker {
  private opened = false;
  private probing = false;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly probe: () => Promise<unknown>,
    private readonly onChange: (open: boolean) => void = () => undefined,
    private readonly probeIntervalMs = PROBE_INTERVAL_MS,
  ) {}

  get open(): boolean {
    return this.opened;
  }

  /** A call failed: open the circuit (if it is not already) and start probing. */
  recordFailure(): void {
    if (this.opened) return;
    this.opened = true;
    this.onChange(true);
    this.timer = setInterval(() => void this.tryProbe(), this.probeIntervalMs).unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private async tryProbe(): Promise<void> {
    if (this.probing || !this.opened) return;
    this.probing = true;
    try {
      await this.probe();
      this.stop();
      this.opened = false;
      this.onChange(false);
    } catch {
      // Still down: the next tick probes again.
    } finally {
      this.probing = false;
    }
  }
}
