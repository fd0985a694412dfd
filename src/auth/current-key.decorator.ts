import { type ExecutionContext, createParamDecorator } from '@nestjs/common';
import type { KeyPolicy } from '../limits/key-policy';
import { authenticatedKey } from '../limits/authenticated-key';
import { requestOf } from '../common/http-context';

/**
 * The policy of the key that authenticated the request, for a handler of a protected route:
 * `get(@CurrentKey() key: KeyPolicy)`. On a `@Public()` route there is none, and asking is a bug.
 */
export const CurrentKey = createParamDecorator((_data: unknown, context: ExecutionContext): KeyPolicy => {
  const key = authenticatedKey(requestOf(context));
  if (!key) throw new Error('@CurrentKey() on a route without an authenticated key (a @Public() route?)');
  return key;
});
