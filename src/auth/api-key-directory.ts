import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error';
import { hashApiKey, readBearerCredentials } from './api-key-format';
import type { AuthenticatedKey } from './authenticated-request';
import { ApiKeyService, type StoredKeyState } from './api-key.service';

/**
 * How often every replica re-reads the keys changed lately. A disable made by another process is
 * refused everywhere within about this long (the contract allows 10 s); a new key is accepted.
 */
export const KEY_REFRESH_INTERVAL_MS = 2_000;
/** Each refresh re-reads keys changed within the time since the last good one plus this margin. */
const REFRESH_OVERLAP_S = 10;
/** Deletions and changes made outside `updated_at` are picked up by a full reload this often. */
const FULL_RELOAD_INTERVAL_MS = 60_000;

/**
 * Every stored key (hash → policy and disabled flag), held by every replica: authentication costs no
 * query, an unknown key (well-formed or not) costs none either, and a flood of distinct keys evicts
 * nothing.
 */
@Injectable()
export class ApiKeyDirectory implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('ApiKeys');
  private byHash = new Map<string, StoredKeyState>();
  private hashById = new Map<string, string>();
  private timer: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;
  private lastRefreshAt = 0;
  private lastFullLoadAt = 0;
  private refreshing = false;

  constructor(private readonly apiKeys: ApiKeyService) {}

  async onModuleInit(): Promise<void> {
    this.unsubscribe = this.apiKeys.onChange((key) => this.put(key));
    await this.reloadAll();
    this.timer = setInterval(() => void this.refresh(), KEY_REFRESH_INTERVAL_MS).unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
    this.unsubscribe?.();
  }

  /** The key policy for an Authorization header, or the contract's 401/403 error. */
  authenticate(authorization: string | string[] | undefined): AuthenticatedKey {
    const credentials = readBearerCredentials(authorization);
    if (credentials.kind === 'missing') throw new ApiError('MISSING_API_KEY');
    if (credentials.kind === 'invalid') throw new ApiError('INVALID_API_KEY');
    // The map is keyed by SHA-256 of 256-bit secrets: timing reveals nothing usable about a key.
    const stored = this.byHash.get(hashApiKey(credentials.key));
    if (!stored) throw new ApiError('INVALID_API_KEY');
    if (stored.disabled) throw new ApiError('API_KEY_DISABLED');
    return { id: stored.id, rpm: stored.rpm, monthlyQuota: stored.monthlyQuota };
  }

  /** Re-reads recent changes (or everything, now and then, or after failures); never throws. */
  async refresh(): Promise<void> {
    if (this.refreshing) return;
    this.refreshing = true;
    const startedAt = Date.now();
    try {
      if (startedAt - this.lastFullLoadAt >= FULL_RELOAD_INTERVAL_MS) {
        await this.reloadAll();
      } else {
        const seconds = (startedAt - this.lastRefreshAt) / 1000 + REFRESH_OVERLAP_S;
        for (const key of await this.apiKeys.statesChangedWithin(seconds)) this.put(key);
        this.lastRefreshAt = startedAt;
      }
    } catch (error) {
      // Keep serving the keys as last known; the next refresh reads a longer stretch.
      this.logger.warn({ err: error }, 'Could not refresh the API keys');
    } finally {
      this.refreshing = false;
    }
  }

  private async reloadAll(): Promise<void> {
    const startedAt = Date.now();
    const keys = await this.apiKeys.allStates();
    this.byHash = new Map(keys.map((key) => [key.keyHash, key]));
    this.hashById = new Map(keys.map((key) => [key.id, key.keyHash]));
    this.lastFullLoadAt = startedAt;
    this.lastRefreshAt = startedAt;
  }

  private put(key: StoredKeyState): void {
    const previousHash = this.hashById.get(key.id);
    if (previousHash !== undefined && previousHash !== key.keyHash) this.byHash.delete(previousHash);
    this.byHash.set(key.keyHash, key);
    this.hashById.set(key.id, key.keyHash);
  }
}
