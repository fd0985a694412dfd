import type { KeyPolicy } from './key-policy';

const keys = new WeakMap<object, KeyPolicy>();

/** Called by ApiKeyGuard once the request's key is known to be stored and enabled. */
export function attachAuthenticatedKey(req: object, key: KeyPolicy): void {
  keys.set(req, key);
}

/** The key ApiKeyGuard attached; undefined on public routes (and before authentication). */
export function authenticatedKey(req: object): KeyPolicy | undefined {
  return keys.get(req);
}
