import { ExpressAdapter } from '@nestjs/platform-express';
import type { Response } from 'express';

/**
 * Sends `Uint8Array` answers (cached UTF-8 pages) through Express's `res.send` as they are, so
 * Content-Length, HEAD and 304 work as for text; Nest's `reply` would serialize them as an object.
 */
export class ByteAnswerExpressAdapter extends ExpressAdapter {
  override reply(response: Response, body: unknown, statusCode?: number): unknown {
    if (!(body instanceof Uint8Array)) return super.reply(response, body, statusCode);
    if (statusCode) response.status(statusCode);
    return response.send(body);
  }
}
