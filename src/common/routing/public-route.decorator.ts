import { type ExecutionContext, SetMetadata } from '@nestjs/common';
import type { Reflector } from '@nestjs/core';

/** Route metadata read by the global guards: a public route needs no API key and is not metered. */
export const PUBLIC_ROUTE = 'catalog-api:public-route';

/** Marks a controller or handler as public (`/health`, `/openapi.json`). */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(PUBLIC_ROUTE, true);

/** Route metadata is fixed once the app has started, so each handler's answer is read once. */
const publicHandlers = new WeakMap<object, boolean>();

/** Whether the handler of `context` (or its controller) is marked `@Public()`: the guards' one test. */
export function isPublicRoute(reflector: Reflector, context: ExecutionContext): boolean {
  const handler = context.getHandler();
  let known = publicHandlers.get(handler);
  if (known === undefined) {
    known = reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, [handler, context.getClass()]) === true;
    publicHandlers.set(handler, known);
  }
  return known;
}
