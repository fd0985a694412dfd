import type { Response } from 'express';
import { endAnswer, holdAnswerHeaders } from '../common/answer-head/answer-head';
import { AppPrototypesExpressAdapter } from './app-prototypes.adapter';
import { ByteString } from '../common/envelope';
import { answerBody } from '../common/routing/data-answer';

/**
 * Sends bytes (`Uint8Array`, a cached answer's `ByteString`) as they are, with their length; Nest's
 * `reply` would serialize them as objects. Written with `end`, not Express's `res.send`: the handler
 * has already set their type and decided freshness (`ConditionalReply`), and Node leaves the body out
 * of a HEAD. Its app's responses hold the service's answer headers until then (`answer-head.ts`),
 * and its server makes requests and responses on the app's prototypes (`app-prototypes.adapter.ts`).
 */
export class ByteAnswerExpressAdapter extends AppPrototypesExpressAdapter {
  constructor(instance?: unknown) {
    super(instance);
    holdAnswerHeaders(this.getInstance());
  }

  override reply(response: Response, answer: unknown, statusCode?: number): unknown {
    // A route that writes no envelope of its own answers its value as data (`route-defaults.ts`).
    const body = answerBody(response, answer);
    if (!(body instanceof ByteString || body instanceof Uint8Array)) {
      // Every answer is JSON: text a handler returns without a type of its own too (Express says text/html).
      if (typeof body === 'string' && !response.hasHeader('Content-Type')) response.type('json');
      return super.reply(response, body, statusCode);
    }
    endAnswer(response, statusCode ?? response.statusCode, body);
    return response;
  }
}
