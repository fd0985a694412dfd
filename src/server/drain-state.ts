import { Injectable } from '@nestjs/common';

/** Whether the process is draining for shutdown: readiness fails while requests are still served. */
@Injectable()
export class DrainState {
  private started = false;
  private readonly onStart: (() => void)[] = [];

  get draining(): boolean {
    return this.started;
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    for (const listener of this.onStart) listener();
  }

  /** Calls `listener` when the drain starts (HEALTH_PORT's thread is told at once). */
  whenStarted(listener: () => void): void {
    if (this.started) listener();
    else this.onStart.push(listener);
  }
}
