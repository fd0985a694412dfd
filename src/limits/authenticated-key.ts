import type { KeyPolicy } from './key-policy';

/**
 * Where a request keeps its key: a symbol, so no other code or client input can set it (as the
 * request id). A WeakMap entry per request cost more than the lookup's whole key check.
 */
const AUTHENTICATED_KEY = Symbol('authenticatedKey');
type WithKey = { [AUTHENTICATED_KEY]?: KeyPolicy };

/** Called by ApiKeyGuard once the request's key is known to be stored and enabled. */
export function attachAuthenticatedKey(req: object, key: KeyPolicy): void {
  (req as WithKey)[AUTHENTICATED_KEY] = key;
}

/** The key ApiKeyGuard attached; undefined on public routes (and before authentication). */
export function authenticatedKey(req: object): KeyPolicy | undefined {
  return (req as WithKey)[AUTHENTICATED_KEY];
}
