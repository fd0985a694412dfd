/** What the limits need to know about the key that authenticated a request. */
export interface AuthenticatedKey {
  id: string;
  /** Requests per minute. */
  rpm: number;
  /** Requests per UTC calendar month. */
  monthlyQuota: number;
}

const keys = new WeakMap<object, AuthenticatedKey>();

/** Called by ApiKeyGuard once the request's key is known to be stored and enabled. */
export function attachAuthenticatedKey(req: object, key: AuthenticatedKey): void {
  keys.set(req, key);
}

/** The key ApiKeyGuard attached; undefined on public routes (and before authentication). */
export function authenticatedKey(req: object): AuthenticatedKey | undefined {
  return keys.get(req);
}
