import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { isPublicRoute } from '../common/routing/public-route.decorator';
import { RouteMetadata } from '../common/routing/route-metadata';
import { ApiKeyDirectory } from './api-key-directory';
import { PRIVATE_ANSWER_HEADERS } from './private-answer-headers';
import { attachAuthenticatedKey } from './authenticated-request';

/** First of the contract's checks, on every route not marked public: a stored, enabled bearer key. */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly directory: ApiKeyDirectory,
    private readonly reflector: RouteMetadata,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    if (isPublicRoute(this.reflector, context)) return true;
    const req = context.switchToHttp().getRequest<Request>();
    attachAuthenticatedKey(req, this.directory.authenticate(req.headers.authorization));
    // An answer for one key is no one else's: shared caches must not keep it, clients revalidate.
    context.switchToHttp().getResponse<Response>().set(PRIVATE_ANSWER_HEADERS);
    return true;
  }
}
