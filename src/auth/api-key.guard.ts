import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { ApiKeyService } from './api-key.service';
import type { AuthenticatedRequest } from './authenticated-request';

/** First of the contract's checks: a bearer key that is stored and enabled. */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(private readonly apiKeys: ApiKeyService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<AuthenticatedRequest>();
    req.apiKey = await this.apiKeys.authenticate(req.headers.authorization);
    return true;
  }
}
