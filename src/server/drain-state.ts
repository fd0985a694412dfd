import { Injectable } from '@nestjs/common';

/** Whether the process is draining for shutdown: readiness fails while requests are still served. */
@Injectable()
export class DrainState {
  private started = false;

  get draining(): boolean {
    return this.started;
  }

  start(): void {
    this.started = true;
  }
}
