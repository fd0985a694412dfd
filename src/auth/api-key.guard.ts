import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { PRIVATE_ANSWER_HEADERS } from './private-answer-headers';
import type { KeyPolicy } from '../limits/key-policy';
import { isPublicRoute } from '../common/routing/public-route.decorator';
import { RouteMetadata } from '../common/routing/route-metadata';
import { ApiKeyDirectory } from './api-key-directory';
import { attachAuthenticatedKey } from '../limits/authenticated-key';
import { requestOf, responseOf } from '../common/http-context';
import { setAnswerHeader } from '../common/answer-head/answer-head';

/** Built once: Express's `res.set` of an object costs a copy and a check per header on every request. */
const PRIVATE_ANSWER_HEADER_PAIRS = Object.entries(PRIVATE_ANSWER_HEADERS);

/** First of the contract's checks, on every route not marked public: a stored, enabled bearer key. */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly directory: ApiKeyDirectory,
    private readonly reflector: RouteMetadata,
  ) {}

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    if (isPublicRoute(this.reflector, context)) return true;
    const req = requestOf(context);
    const key = this.directory.authenticate(req.headers.authorization);
    // A known key is answered synchronously; only an unknown one waits for the directory's re-read.
    if (key instanceof Promise) return key.then((found) => this.accept(context, req, found));
    return this.accept(context, req, key);
  }

  private accept(context: ExecutionContext, req: Request, key: KeyPolicy): true {
    attachAuthenticatedKey(req, key);
    // An answer for one key is no one else's: shared caches must not keep it, clients revalidate.
    const res = responseOf(context);
    for (const [name, value] of PRIVATE_ANSWER_HEADER_PAIRS) setAnswerHeader(res, name, value);
    return true;
  }
}
