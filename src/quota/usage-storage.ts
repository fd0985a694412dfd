import type { ThrottlerLimitDetail, ThrottlerStorage } from '@nestjs/throttler';

/** The record every ThrottlerStorage returns (not re-exported by the package's index). */
type ThrottlerStorageRecord = Omit<ThrottlerLimitDetail, 'ttl' | 'limit' | 'key' | 'tracker'>;

/** A ThrottlerStorage that also counts the monthly quota of a request within the minute. */
export interface UsageStorage extends ThrottlerStorage {
  increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): Promise<UsageRecord>;
}

export interface UsageRecord extends ThrottlerStorageRecord {
  /** Null when the per-minute limit refused the request (the quota was not consulted). */
  quota: { exceeded: boolean; retryAfterSeconds: number } | null;
}

/**
 * The throttler key is the opaque string a ThrottlerStorage counts under. Ours names the API key and
 * carries its monthly quota, so the storage can count both limits in one round trip.
 */
export function encodeUsageKey(keyId: string, monthlyQuota: number): string {
  return `${keyId}:${monthlyQuota}`;
}

export function decodeUsageKey(key: string): { keyId: string; monthlyQuota: number } {
  const separator = key.lastIndexOf(':');
  return { keyId: key.slice(0, separator), monthlyQuota: Number(key.slice(separator + 1)) };
}
