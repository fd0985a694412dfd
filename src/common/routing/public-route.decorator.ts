import { type ExecutionContext, SetMetadata } from '@nestjs/common';
import type { Reflector } from '@nestjs/core';

/** Route metadata read by the global guards: a public route needs no API key and is not metered. */
export const PUBLIC_ROUTE = 'catalog-api:public-route';

/** Marks a controller or handler as public (`/health`, `/openapi.json`). */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(PUBLIC_ROUTE, true);

/** Whether the handler of `context` (or its controller) is marked `@Public()`: the guards' one test. */
export function isPublicRoute(reflector: Reflector, context: ExecutionContext): boolean {
  return (
    reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, [context.getHandler(), context.getClass()]) === true
  );
}
