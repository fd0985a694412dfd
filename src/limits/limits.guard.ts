import { type ExecutionContext, Injectable } from '@nestjs/common';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  ThrottlerGuard,
  type ThrottlerLimitDetail,
  type ThrottlerModuleOptions,
  type ThrottlerStorage,
} from '@nestjs/throttler';
import type { Response } from 'express';
import { type AuthenticatedKey, authenticatedKey } from '../auth/authenticated-request';
import { ApiError } from '../common/errors/api-error';
import { isPublicRoute } from '../common/routing/public-route.decorator';
import { RouteMetadata } from '../common/routing/route-metadata';
import { AllowanceStorage } from './allowance.storage';
import {
  LIMIT_NAMES,
  type LimitName,
  admittedHeaders,
  counterKey,
  limitUsage,
  rateLimitFields,
  refusalCode,
  refusedHeaders,
} from './limits-policy';

/**
 * Second and third checks of the contract: the `minute` and `month` throttlers, in that order (the
 * guard stops at the first refusal). Public routes are not metered. Every response after
 * authentication carries the contract's X-RateLimit-* headers and the IETF RateLimit fields.
 */
@Injectable()
export class LimitsGuard extends ThrottlerGuard {
  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() storage: ThrottlerStorage,
    reflector: RouteMetadata,
    private readonly allowances: AllowanceStorage,
  ) {
    super(options, storage, reflector);
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const key = authenticatedKey(context.switchToHttp().getRequest());
    const res = context.switchToHttp().getResponse<Response>();
    // Written first, so the policy is on the response whatever fails later.
    if (key) res.set(admittedHeaders(key));
    const admitted = await super.canActivate(context);
    if (key) res.set(this.currentFields(key, null));
    return admitted;
  }

  protected override async shouldSkip(context: ExecutionContext): Promise<boolean> {
    return isPublicRoute(this.reflector, context);
  }

  protected override async throwThrottlingException(
    context: ExecutionContext,
    detail: ThrottlerLimitDetail,
  ): Promise<void> {
    // The refusing throttler is the one whose counter this is.
    const refusedBy = LIMIT_NAMES.find((name) => counterKey(name, detail.tracker) === detail.key);
    if (!refusedBy) throw new Error(`A refusal from an unknown counter: ${detail.key}`);
    const key = authenticatedKey(context.switchToHttp().getRequest());
    const now = Date.now();
    // The error filter writes these over the admitted ones: Remaining 0 and Retry-After.
    throw new ApiError(refusalCode(refusedBy), undefined, {
      ...refusedHeaders(refusedBy, now),
      ...(key ? this.currentFields(key, refusedBy) : {}),
    });
  }

  /** The RateLimit fields from what this replica knows (no I/O), within a block per other replica. */
  private currentFields(key: AuthenticatedKey, refusedBy: LimitName | null): Record<string, string> {
    const now = Date.now();
    const usage = {
      minute: limitUsage('minute', key, this.allowances.localStanding(counterKey('minute', key.id)), now),
      month: limitUsage('month', key, this.allowances.localStanding(counterKey('month', key.id)), now),
    };
    if (refusedBy) usage[refusedBy].remaining = 0;
    return rateLimitFields(key, usage, now);
  }
}
