import { SetMetadata } from '@nestjs/common';

/**
 * Route metadata the parameter decorators of the route kit set on their handler, read once at start
 * (`route-kit/route-defaults.ts`) to decide what the service adds to a route.
 */
/** The handler writes its own envelope: it takes `@RequestId()` or `@Conditional()`. */
export const OWN_ENVELOPE = 'catalog-api:own-envelope';
/** The handler reads its query with `@ValidatedQuery(Dto)`, which refuses unknown parameters itself. */
export const VALIDATED_QUERY = 'catalog-api:validated-query';

/** A parameter decorator that also marks its handler with `key`. */
export function markingHandler<A extends unknown[]>(
  key: string,
  decorator: (...args: A) => ParameterDecorator,
): (...args: A) => ParameterDecorator {
  return (...args: A): ParameterDecorator =>
    (target, propertyKey, index) => {
      decorator(...args)(target, propertyKey, index);
      const descriptor =
        propertyKey === undefined ? undefined : Object.getOwnPropertyDescriptor(target, propertyKey);
      if (propertyKey !== undefined && descriptor) SetMetadata(key, true)(target, propertyKey, descriptor);
    };
}
