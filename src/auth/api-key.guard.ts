import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { PUBLIC_ROUTE } from '../common/routing/public-route.decorator';
import { ApiKeyDirectory } from './api-key-directory';
import { attachAuthenticatedKey } from './authenticated-request';

/** First of the contract's checks, on every route not marked public: a stored, enabled bearer key. */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly directory: ApiKeyDirectory,
    private readonly reflector: Reflector,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, [context.getHandler(), context.getClass()])) {
      return true;
    }
    const req = context.switchToHttp().getRequest<Request>();
    attachAuthenticatedKey(req, this.directory.authenticate(req.headers.authorization));
    return true;
  }
}
