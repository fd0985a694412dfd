import type { NestApplicationOptions } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Express } from 'express';
import { createServer } from 'node:http';
import { type MessageClasses, appMessageClasses } from './app-message-classes';

/**
 * Nest's Express adapter whose server makes every request and response on the app's prototypes
 * (`app-message-classes.ts`), so Express's per-request prototype change finds nothing to do.
 */
export class AppPrototypesExpressAdapter extends ExpressAdapter {
  /** Null when off (`FAST_ANSWERS=0`): then the server is Nest's own. */
  private readonly messageClasses: MessageClasses | null;

  constructor(instance?: unknown, onAppPrototypes = true) {
    super(instance);
    this.messageClasses = onAppPrototypes ? appMessageClasses(this.getInstance<Express>()) : null;
  }

  /**
   * Nest's server, given the app's request and response classes: through the HTTPS options Nest
   * passes on, or, over HTTP (where Nest passes none), on a server made here in place of Nest's.
   * With `forceCloseConnections`, which tracks the connections of the server Nest made, Nest's stays.
   */
  override initHttpServer(options: NestApplicationOptions): void {
    if (this.messageClasses === null) {
      super.initHttpServer(options);
      return;
    }
    if (options.httpsOptions) {
      super.initHttpServer({ ...options, httpsOptions: { ...options.httpsOptions, ...this.messageClasses } });
      return;
    }
    super.initHttpServer(options);
    if (!options.forceCloseConnections)
      this.setHttpServer(createServer(this.messageClasses, this.getInstance<Express>()));
  }
}
