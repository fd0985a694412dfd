import { Inject, Injectable } from '@nestjs/common';
import { ApiKeyDirectory } from '../auth/api-key-directory';
import type { KeyPolicy } from '../limits/key-policy';
import { type LimitTable, counterKey } from '../limits/limit-table';
import { ReplicaAllowances } from '../limits/replica-allowances';
import { LIMIT_TABLE } from '../limits/limit-table.token';
import { type LimitUsage, limitUsage } from '../limits/limit-usage';
import type { WindowUsageDto } from './usage.dto';

/**
 * The key's id, then each limit's policy field (`rpm`, `monthly_quota`), then each limit's window
 * under its name (`minute`, `month`), in the limit table's order; then `expires_at` when the key has
 * an expiry and `previous_key_ends_at` while a rotation's overlap runs (absent otherwise).
 */
export type KeyUsage = { key_id: string } & Record<string, string | number | WindowUsageDto>;

@Injectable()
export class UsageService {
  constructor(
    private readonly allowances: ReplicaAllowances,
    @Inject(LIMIT_TABLE) private readonly limits: LimitTable,
    private readonly directory: ApiKeyDirectory,
  ) {}

  /**
   * Read from the shared counters. Blocks other replicas have reserved but not spent yet count as
   * used (at most one block per replica, see docs/limits.md).
   */
  async of(key: KeyPolicy): Promise<KeyUsage> {
    const now = Date.now();
    const windows = await Promise.all(
      this.limits.map(async (row) =>
        usageJson(
          limitUsage(
            row,
            key,
            await this.allowances.countedWindow(counterKey(row.name, key.id), row.name),
            now,
          ),
        ),
      ),
    );
    const usage: KeyUsage = { key_id: key.id };
    for (const row of this.limits) usage[row.limit.field] = row.limit.of(key);
    this.limits.forEach((row, i) => (usage[row.name] = windows[i]));
    const lifetime = this.directory.lifetimeOf(key.id, now);
    if (lifetime.expiresAt !== null) usage.expires_at = new Date(lifetime.expiresAt).toISOString();
    if (lifetime.previousKeyEndsAt !== null) {
      usage.previous_key_ends_at = new Date(lifetime.previousKeyEndsAt).toISOString();
    }
    return usage;
  }
}

function usageJson(usage: LimitUsage): WindowUsageDto {
  return {
    used: usage.used,
    remaining: usage.remaining,
    resets_at: usage.resetsAt === null ? null : new Date(usage.resetsAt).toISOString(),
  };
}
