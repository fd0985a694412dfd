/**
 * A key's policy: who it is and what it may do. `ApiKeyGuard` finds it for the request's key; the
 * limits read each limit from it (see LIMITS); controllers receive it with `@CurrentKey()`.
 */
export interface KeyPolicy {
  id: string;
  /** Requests per minute. */
  rpm: number;
  /** Requests per UTC calendar month. */
  monthlyQuota: number;
}
