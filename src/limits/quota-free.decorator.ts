import { type ExecutionContext, SetMetadata } from '@nestjs/common';
import type { Reflector } from '@nestjs/core';

/** Route metadata read by the quotas' throttlers (the rows marked `quota`). */
export const QUOTA_FREE_ROUTE = 'catalog-api:quota-free-route';

/**
 * Marks a route whose requests count in the rates (the minute) but in no quota, so it is answered
 * even when a quota is exhausted: `GET /v1/usage`. Every quota row of the table skips it.
 */
export const QuotaFree = (): MethodDecorator & ClassDecorator => SetMetadata(QUOTA_FREE_ROUTE, true);

export function isQuotaFreeRoute(reflector: Reflector, context: ExecutionContext): boolean {
  return (
    reflector.getAllAndOverride<boolean>(QUOTA_FREE_ROUTE, [context.getHandler(), context.getClass()]) ===
    true
  );
}
