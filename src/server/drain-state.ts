import { Injectable } from '@nestjs/common';

/** Whether the process is draining for shutdown: readiness fails while requests are still served. */
@Injectable()
export class DrainState {
  private drainingSince: number | null = null;

  get draining(): boolean {
    return this.drainingSince !== null;
  }

  start(): void {
    this.drainingSince ??= Date.now();
  }
}
