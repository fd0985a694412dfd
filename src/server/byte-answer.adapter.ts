import type { Response } from 'express';
import { endAnswer, holdAnswerHeaders } from '../common/answer-head/answer-head';
import { AppPrototypesExpressAdapter } from './app-prototypes.adapter';
import { ByteString } from '../common/envelope';
import { answerBody } from '../common/routing/data-answer';

/**
 * Sends bytes (`Uint8Array`, a cached answer's `ByteString`) as they are, with their length; Nest's
 * `reply` would serialize them as objects. The handler has already set their type and decided
 * freshness (`ConditionalReply`).
 *
 * With `fastAnswers` (the default) they are written with `end`, not Express's `res.send`, and Node
 * leaves the body out of a HEAD; the app's responses hold the service's answer headers until then
 * (`answer-head.ts`), and its server makes requests and responses on the app's prototypes
 * (`app-prototypes.adapter.ts`). Without (`FAST_ANSWERS=0`) it is stock NestJS on Express: Nest's
 * server, `setHeader`, and `res.send` of the same bytes (the app's `etag` setting is off, so Express
 * adds no ETag of its own).
 */
export class ByteAnswerExpressAdapter extends AppPrototypesExpressAdapter {
  constructor(
    instance?: unknown,
    private readonly fastAnswers = true,
  ) {
    super(instance, fastAnswers);
    if (fastAnswers) holdAnswerHeaders(this.getInstance());
  }

  override reply(response: Response, answer: unknown, statusCode?: number): unknown {
    // A route that writes no envelope of its own answers its value as data (`route-defaults.ts`).
    const body = answerBody(response, answer);
    if (!(body instanceof ByteString || body instanceof Uint8Array)) {
      // Every answer is JSON: text a handler returns without a type of its own too (Express says text/html).
      if (typeof body === 'string' && !response.hasHeader('Content-Type')) response.type('json');
      return super.reply(response, body, statusCode);
    }
    if (this.fastAnswers) {
      endAnswer(response, statusCode ?? response.statusCode, body);
      return response;
    }
    response.status(statusCode ?? response.statusCode);
    return response.send(
      body instanceof ByteString
        ? Buffer.from(body.bytes, 'latin1')
        : Buffer.from(body.buffer, body.byteOffset, body.byteLength),
    );
  }
}
