import { ExpressAdapter } from '@nestjs/platform-express';
import type { Response } from 'express';

/**
 * Nest's Express adapter, sending an answer given as bytes (a `Uint8Array`, such as a page written
 * from its cached UTF-8) through Express's `res.send` as it is: Express sets its Content-Length and
 * answers HEAD and fresh requests as it does for text. Nest's own `reply` would serialize the bytes
 * as a JSON object. Every other answer is Nest's.
 */
export class ByteAnswerExpressAdapter extends ExpressAdapter {
  override reply(response: Response, body: unknown, statusCode?: number): unknown {
    if (!(body instanceof Uint8Array)) return super.reply(response, body, statusCode);
    if (statusCode) response.status(statusCode);
    return response.send(body);
  }
}
