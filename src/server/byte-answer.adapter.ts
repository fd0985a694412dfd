import { ExpressAdapter } from '@nestjs/platform-express';
import type { Response } from 'express';
import { AnswerParts } from '../common/envelope';

/**
 * Sends `Uint8Array` answers (cached envelopes) as they are, with their length, and `AnswerParts`
 * (large ones) chunk by chunk in one socket write; Nest's `reply` would serialize them as objects.
 * Written with `end`, not Express's `res.send`: the handler has already set their type and decided
 * freshness (`ConditionalReply`), and Node leaves the body out of a HEAD.
 */
export class ByteAnswerExpressAdapter extends ExpressAdapter {
  override reply(response: Response, body: unknown, statusCode?: number): unknown {
    if (!(body instanceof Uint8Array || body instanceof AnswerParts)) {
      return super.reply(response, body, statusCode);
    }
    if (statusCode) response.statusCode = statusCode;
    response.setHeader('Content-Length', body.byteLength);
    if (body instanceof Uint8Array) return response.end(body);
    // Corked, the head and every chunk leave in one write when `end` flushes the socket.
    response.cork();
    const last = body.chunks.length - 1;
    for (let i = 0; i < last; i++) response.write(body.chunks[i]);
    response.end(body.chunks[last]);
    response.uncork();
    return response;
  }
}
