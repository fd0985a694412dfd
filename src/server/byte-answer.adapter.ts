import { ExpressAdapter } from '@nestjs/platform-express';
import type { Response } from 'express';
import { endAnswer, holdAnswerHeaders } from './answer-head';
import { ByteString } from '../common/envelope';

/**
 * Sends bytes (`Uint8Array`, a cached answer's `ByteString`) as they are, with their length; Nest's
 * `reply` would serialize them as objects. Written with `end`, not Express's `res.send`: the handler
 * has already set their type and decided freshness (`ConditionalReply`), and Node leaves the body out
 * of a HEAD. Its app's responses hold the service's answer headers until then (`answer-head.ts`).
 */
export class ByteAnswerExpressAdapter extends ExpressAdapter {
  constructor(instance?: unknown) {
    super(instance);
    holdAnswerHeaders(this.getInstance());
  }

  override reply(response: Response, body: unknown, statusCode?: number): unknown {
    if (!(body instanceof ByteString || body instanceof Uint8Array))
      return super.reply(response, body, statusCode);
    endAnswer(response, statusCode ?? response.statusCode, body);
    return response;
  }
}
