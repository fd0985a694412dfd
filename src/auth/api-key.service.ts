import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomUUID, timingSafeEqual } from 'node:crypto';
import type { Repository } from 'typeorm';
import { ApiError } from '../common/errors/api-error';
import { ApiKeyEntity } from './api-key.entity';
import { displayPrefix, generateApiKey, hashApiKey, readBearerCredentials } from './api-key-format';

/** What the limits need to know about an authenticated key. */
export interface ApiKeyPolicy {
  id: string;
  rpm: number;
  monthlyQuota: number;
}

export interface NewApiKey {
  name: string;
  rpm: number;
  monthlyQuota: number;
}

export interface ApiKeySummary {
  id: string;
  name: string;
  prefix: string;
  rpm: number;
  monthly_quota: number;
  disabled: boolean;
  created_at: string;
}

/**
 * A disable reaches every replica within this time (the contract allows 10 s); in between, a hot
 * key costs no query.
 */
export const KEY_CACHE_TTL_MS = 5_000;
const KEY_CACHE_MAX_ENTRIES = 10_000;

type CachedLookup = { expiresAt: number; entity: Promise<ApiKeyEntity | null> };

@Injectable()
export class ApiKeyService {
  private readonly cache = new Map<string, CachedLookup>();

  constructor(@InjectRepository(ApiKeyEntity) private readonly keys: Repository<ApiKeyEntity>) {}

  /** The key policy for an Authorization header, or the contract's 401/403 error. */
  async authenticate(authorization: string | string[] | undefined): Promise<ApiKeyPolicy> {
    const credentials = readBearerCredentials(authorization);
    if (credentials.kind === 'missing') throw new ApiError('MISSING_API_KEY');
    if (credentials.kind === 'invalid') throw new ApiError('INVALID_API_KEY');
    const hash = hashApiKey(credentials.key);
    const entity = await this.lookup(hash);
    // Found by its hash; compared again in constant time so no code path branches on key bytes.
    if (!entity || !timingSafeEqual(Buffer.from(entity.keyHash, 'hex'), Buffer.from(hash, 'hex'))) {
      throw new ApiError('INVALID_API_KEY');
    }
    if (entity.disabled) throw new ApiError('API_KEY_DISABLED');
    return { id: entity.id, rpm: entity.rpm, monthlyQuota: entity.monthlyQuota };
  }

  /** Creates a key; the complete key is returned here once and never stored. */
  async create(input: NewApiKey): Promise<{ key: string; summary: ApiKeySummary }> {
    const key = generateApiKey();
    const entity = this.keys.create({
      id: randomUUID(),
      name: input.name,
      keyHash: hashApiKey(key),
      prefix: displayPrefix(key),
      rpm: input.rpm,
      monthlyQuota: input.monthlyQuota,
      disabled: false,
    });
    return { key, summary: summarize(await this.keys.save(entity)) };
  }

  async list(): Promise<ApiKeySummary[]> {
    return (await this.keys.find({ order: { createdAt: 'ASC', id: 'ASC' } })).map(summarize);
  }

  async count(): Promise<number> {
    return this.keys.count();
  }

  /** Sets the disabled flag; false when no key has the id. */
  async setDisabled(id: string, disabled: boolean): Promise<boolean> {
    const result = await this.keys.update({ id }, { disabled });
    return (result.affected ?? 0) > 0;
  }

  /** Cached by hash for a few seconds, unknown keys included; concurrent misses share one query. */
  private lookup(hash: string): Promise<ApiKeyEntity | null> {
    const now = Date.now();
    const cached = this.cache.get(hash);
    if (cached && cached.expiresAt > now) return cached.entity;
    if (this.cache.size >= KEY_CACHE_MAX_ENTRIES) this.evictExpired(now);
    const entry = { expiresAt: now + KEY_CACHE_TTL_MS, entity: this.keys.findOneBy({ keyHash: hash }) };
    this.cache.set(hash, entry);
    // A failed lookup is not remembered (unless a newer lookup has replaced it already).
    entry.entity.catch(() => this.cache.get(hash) === entry && this.cache.delete(hash));
    return entry.entity;
  }

  private evictExpired(now: number): void {
    for (const [hash, cached] of this.cache) if (cached.expiresAt <= now) this.cache.delete(hash);
    // Still full: a flood of distinct keys. Start over rather than grow without bound.
    if (this.cache.size >= KEY_CACHE_MAX_ENTRIES) this.cache.clear();
  }
}

function summarize(entity: ApiKeyEntity): ApiKeySummary {
  return {
    id: entity.id,
    name: entity.name,
    prefix: entity.prefix,
    rpm: entity.rpm,
    monthly_quota: entity.monthlyQuota,
    disabled: entity.disabled,
    created_at: entity.createdAt.toISOString(),
  };
}
