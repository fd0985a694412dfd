import { Injectable } from '@nestjs/common';
import type { AuthenticatedKey } from '../auth/authenticated-request';
import { AllowanceStorage } from './allowance.storage';
import { type LimitName, type LimitUsage, counterKey, limitUsage } from './limits-policy';

export interface WindowUsage {
  used: number;
  remaining: number;
  /** ISO 8601 UTC; null for a minute with no window open (the next request starts one). */
  resets_at: string | null;
}

export interface KeyUsage {
  key_id: string;
  rpm: number;
  monthly_quota: number;
  minute: WindowUsage;
  month: WindowUsage;
}

@Injectable()
export class UsageService {
  constructor(private readonly allowances: AllowanceStorage) {}

  /**
   * Read from the shared counters. Blocks other replicas have reserved but not spent yet count as
   * used (at most one block per replica, see docs/limits.md).
   */
  async of(key: AuthenticatedKey | undefined): Promise<KeyUsage> {
    if (!key) throw new Error('Usage asked before authentication');
    const now = Date.now();
    const read = async (name: LimitName) =>
      windowUsage(limitUsage(name, key, await this.allowances.standing(counterKey(name, key.id), name), now));
    const [minute, month] = await Promise.all([read('minute'), read('month')]);
    return { key_id: key.id, rpm: key.rpm, monthly_quota: key.monthlyQuota, minute, month };
  }
}

function windowUsage(usage: LimitUsage): WindowUsage {
  return {
    used: usage.used,
    remaining: usage.remaining,
    resets_at: usage.resetsAt === null ? null : new Date(usage.resetsAt).toISOString(),
  };
}
