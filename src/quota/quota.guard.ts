import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import type { Response } from 'express';
import { ApiError } from '../common/errors/api-error';
import { RATE_LIMIT_HEADERS, type MeteredRequest } from './rate-limit.guard';

/**
 * Third check: the monthly quota (UTC calendar month). It was counted in the same round trip as the
 * minute; this guard only enforces the outcome.
 */
@Injectable()
export class QuotaGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const quota = context.switchToHttp().getRequest<MeteredRequest>().usage.quota;
    if (quota?.exceeded) {
      context.switchToHttp().getResponse<Response>().setHeader(RATE_LIMIT_HEADERS.remaining, '0');
      throw new ApiError('MONTHLY_QUOTA_EXCEEDED', undefined, {
        'Retry-After': String(quota.retryAfterSeconds),
      });
    }
    return true;
  }
}
