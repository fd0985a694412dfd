import { ExpressAdapter } from '@nestjs/platform-express';
import type { Response } from 'express';

/**
 * Sends bytes (`Uint8Array`: a cached answer's envelope) as they are, with their length; Nest's
 * `reply` would serialize them as objects. Written with `end`, not Express's `res.send`: the handler
 * has already set their type and decided freshness (`ConditionalReply`), and Node leaves the body out
 * of a HEAD.
 */
export class ByteAnswerExpressAdapter extends ExpressAdapter {
  override reply(response: Response, body: unknown, statusCode?: number): unknown {
    if (!(body instanceof Uint8Array)) return super.reply(response, body, statusCode);
    response.statusCode = statusCode ?? response.statusCode;
    response.setHeader('Content-Length', body.byteLength);
    response.end(body);
    return response;
  }
}
