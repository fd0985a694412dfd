import { ExpressAdapter } from '@nestjs/platform-express';
import type { Response } from 'express';
import { answerBody } from '../common/routing/data-answer';

/**
 * Sends bytes (`Uint8Array`: a cached answer's envelope) as they are, with their length; Nest's
 * `reply` would serialize them as objects. By default written with `end`, not Express's `res.send`:
 * the handler has already set their type and decided freshness (`ConditionalReply`), and Node leaves
 * the body out of a HEAD. With `fastAnswers` off (`FAST_ANSWERS=0`) they go through `res.send`, as a
 * stock Express handler would send them: the same bytes on the wire.
 */
export class ByteAnswerExpressAdapter extends ExpressAdapter {
  constructor(
    instance?: unknown,
    private readonly fastAnswers = true,
  ) {
    super(instance);
  }

  override reply(response: Response, answer: unknown, statusCode?: number): unknown {
    // A route that writes no envelope of its own answers its value as data (`route-defaults.ts`).
    const body = answerBody(response, answer);
    if (!(body instanceof Uint8Array)) {
      // Every answer is JSON: text a handler returns without a type of its own too (Express says text/html).
      if (typeof body === 'string' && !response.hasHeader('Content-Type')) response.type('json');
      return super.reply(response, body, statusCode);
    }
    response.statusCode = statusCode ?? response.statusCode;
    if (!this.fastAnswers) return response.send(Buffer.from(body.buffer, body.byteOffset, body.byteLength));
    response.setHeader('Content-Length', body.byteLength);
    response.end(body);
    return response;
  }
}
