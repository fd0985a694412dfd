import type { NestApplicationOptions } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Express, Response } from 'express';
import { createServer } from 'node:http';
import { endAnswer, holdAnswerHeaders } from './answer-head';
import { type MessageClasses, appMessageClasses } from './app-message-classes';
import { ByteString } from '../common/envelope';

/**
 * Sends bytes (`Uint8Array`, a cached answer's `ByteString`) as they are, with their length; Nest's
 * `reply` would serialize them as objects. Written with `end`, not Express's `res.send`: the handler
 * has already set their type and decided freshness (`ConditionalReply`), and Node leaves the body out
 * of a HEAD. Its app's responses hold the service's answer headers until then (`answer-head.ts`),
 * and its server makes requests and responses on the app's prototypes (`app-message-classes.ts`).
 */
export class ByteAnswerExpressAdapter extends ExpressAdapter {
  private readonly messageClasses: MessageClasses;

  constructor(instance?: unknown) {
    super(instance);
    this.messageClasses = appMessageClasses(this.getInstance<Express>());
    holdAnswerHeaders(this.getInstance());
  }

  /**
   * Nest's server, given the app's request and response classes: through the HTTPS options Nest
   * passes on, or, over HTTP (where Nest passes none), on a server made here in place of Nest's.
   * With `forceCloseConnections`, which tracks the connections of the server Nest made, Nest's stays.
   */
  override initHttpServer(options: NestApplicationOptions): void {
    if (options.httpsOptions) {
      super.initHttpServer({ ...options, httpsOptions: { ...options.httpsOptions, ...this.messageClasses } });
      return;
    }
    super.initHttpServer(options);
    if (!options.forceCloseConnections)
      this.setHttpServer(createServer(this.messageClasses, this.getInstance<Express>()));
  }

  override reply(response: Response, body: unknown, statusCode?: number): unknown {
    if (!(body instanceof ByteString || body instanceof Uint8Array))
      return super.reply(response, body, statusCode);
    endAnswer(response, statusCode ?? response.statusCode, body);
    return response;
  }
}
