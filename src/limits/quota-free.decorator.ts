import type { ExecutionContext } from '@nestjs/common';
import type { Reflector } from '@nestjs/core';

/** Route metadata read by the quotas' throttlers (the rows marked `quota`). */
export const QUOTA_FREE_ROUTE = 'catalog-api:quota-free-route';

/** Whether a route counts in the rates but in no quota (`QuotaFree()` of the route kit sets it). */
export function isQuotaFreeRoute(reflector: Reflector, context: ExecutionContext): boolean {
  return (
    reflector.getAllAndOverride<boolean>(QUOTA_FREE_ROUTE, [context.getHandler(), context.getClass()]) ===
    true
  );
}
