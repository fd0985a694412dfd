import { type ExecutionContext, Injectable } from '@nestjs/common';
import { ThrottlerGuard, type ThrottlerLimitDetail } from '@nestjs/throttler';
import type { Response } from 'express';
import { authenticatedKey } from '../auth/authenticated-request';
import { ApiError } from '../common/errors/api-error';
import { PUBLIC_ROUTE } from '../common/routing/public-route.decorator';
import { LIMIT_NAMES, admittedHeaders, counterKey, refusalCode, refusedHeaders } from './limits-policy';

/**
 * Second and third checks of the contract: the `minute` and `month` throttlers, in that order (the
 * guard stops at the first refusal). Public routes are not metered.
 */
@Injectable()
export class LimitsGuard extends ThrottlerGuard {
  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const key = authenticatedKey(context.switchToHttp().getRequest());
    // Every response after authentication carries the policy, whatever fails later.
    if (key) context.switchToHttp().getResponse<Response>().set(admittedHeaders(key));
    return super.canActivate(context);
  }

  protected override async shouldSkip(context: ExecutionContext): Promise<boolean> {
    return (
      this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, [context.getHandler(), context.getClass()]) ===
      true
    );
  }

  protected override async throwThrottlingException(
    context: ExecutionContext,
    detail: ThrottlerLimitDetail,
  ): Promise<void> {
    // The refusing throttler is the one whose counter this is.
    const refusedBy = LIMIT_NAMES.find((name) => counterKey(name, detail.tracker) === detail.key);
    if (!refusedBy) throw new Error(`A refusal from an unknown counter: ${detail.key}`);
    // The error filter writes these over the admitted ones: Remaining 0 and Retry-After.
    throw new ApiError(refusalCode(refusedBy), undefined, refusedHeaders(refusedBy, Date.now()));
  }
}
