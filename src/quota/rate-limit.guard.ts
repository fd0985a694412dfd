import { Injectable } from '@nestjs/common';
import { ThrottlerGuard, type ThrottlerRequest } from '@nestjs/throttler';
import type { Response } from 'express';
import type { AuthenticatedRequest } from '../auth/authenticated-request';
import { ApiError } from '../common/errors/api-error';
import { RATE_LIMIT_RETRY_AFTER_SECONDS } from './postgres-throttler.storage';
import type { UsageRecord, UsageStorage } from './usage-storage';

/** A request that passed the per-minute check; QuotaGuard reads its usage. */
export interface MeteredRequest extends AuthenticatedRequest {
  usage: UsageRecord;
}

export const RATE_LIMIT_HEADERS = { limit: 'X-RateLimit-Limit', remaining: 'X-RateLimit-Remaining' } as const;

/**
 * Second check: the key's requests-per-minute policy, through @nestjs/throttler with our storage.
 * The throttler's own headers are off (setHeaders: false); the contract's are written here:
 * Limit is the policy, Remaining is limit − 1 when accepted and 0 on a 429.
 */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  protected override async handleRequest(request: ThrottlerRequest): Promise<boolean> {
    const { context, limit, ttl, blockDuration, throttler, getTracker, generateKey } = request;
    const req = context.switchToHttp().getRequest<MeteredRequest>();
    const res = context.switchToHttp().getResponse<Response>();
    const key = generateKey(context, await getTracker(req, context), throttler.name ?? 'default');
    const storage = this.storageService as unknown as UsageStorage;
    req.usage = await storage.increment(key, ttl, limit, blockDuration, throttler.name ?? 'default');
    res.setHeader(RATE_LIMIT_HEADERS.limit, String(limit));
    if (req.usage.isBlocked) {
      res.setHeader(RATE_LIMIT_HEADERS.remaining, '0');
      throw new ApiError('RATE_LIMITED', undefined, {
        'Retry-After': String(RATE_LIMIT_RETRY_AFTER_SECONDS),
      });
    }
    res.setHeader(RATE_LIMIT_HEADERS.remaining, String(limit - 1));
    return true;
  }
}
