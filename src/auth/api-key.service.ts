import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import type { EntityManager, Repository } from 'typeorm';
import { announceChange } from '../database/change-feed';
import type { KeyPolicy } from '../limits/key-policy';
import { type MonthStanding, monthStandings } from '../limits/quota-standing';
import { ApiKeyEntity } from './api-key.entity';
import { displayPrefix, generateApiKey, hashApiKey } from './api-key-format';

export interface NewApiKey {
  name: string;
  rpm: number;
  monthlyQuota: number;
  /** From this instant the key is refused 403 API_KEY_DISABLED; absent or null: never. */
  expiresAt?: Date | null;
}

/** What `keys:list` says a key is now: a disabled key is `disabled` whatever its expiry. */
export type KeyState = 'active' | 'rotating' | 'expired' | 'disabled';

/** Why a rotation was refused (nothing changed); the CLI names it in its one line. */
export type RotationRefusal = 'unknown' | 'disabled' | 'expired';

export type RotationResult =
  | { rotated: true; key: string; previousKeyEndsAt: Date; retiredOldest: boolean }
  | { rotated: false; reason: RotationRefusal };

export interface ApiKeySummary {
  id: string;
  name: string;
  prefix: string;
  rpm: number;
  monthly_quota: number;
  disabled: boolean;
  created_at: string;
  state: KeyState;
  /** ISO 8601 UTC, or null: never expires. */
  expires_at: string | null;
  /** While a rotation's previous secret still works: when it stops (ISO 8601 UTC); else null. */
  rotating_until: string | null;
  /**
   * Counted against `monthly_quota` in this UTC month, as the shared counter holds it (blocks running
   * replicas reserved and have not spent yet count as used until they go back, 1 s once idle).
   */
  month_used: number;
  /** The UTC day (YYYY-MM-DD) of the key's last counted request; null: none since it is recorded. */
  last_used_on: string | null;
}

/** A stored key as the request path needs it: found by hash, never by the key itself. */
export interface StoredKey {
  keyHash: string;
  disabled: boolean;
  policy: KeyPolicy;
  /** Epoch ms from which the key is refused; null: never. Checked against the clock per request. */
  expiresAt: number | null;
  /** The secret a rotation replaced, and the epoch ms from which it is refused; both null if none. */
  previousKeyHash: string | null;
  previousKeyEndsAt: number | null;
}

export type KeyChangeListener = (key: StoredKey) => void;

/** Keys as operators manage them (CLI, first-run setup) and as the in-memory directory loads them. */
@Injectable()
export class ApiKeyService {
  private readonly listeners = new Set<KeyChangeListener>();

  constructor(@InjectRepository(ApiKeyEntity) private readonly keys: Repository<ApiKeyEntity>) {}

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
      expiresAt: input.expiresAt ?? null,
      previousKeyHash: null,
      previousKeyEndsAt: null,
    });
    const saved = await this.announcing((keys) => keys.save(entity));
    this.notify(saved);
    return { key, summary: summarize(saved) };
  }

  /** Every key with its month: two reads, the keys then their monthly counters (no write). */
  async list(): Promise<ApiKeySummary[]> {
    const keys = await this.keys.find({ order: { createdAt: 'ASC', id: 'ASC' } });
    const months = await monthStandings((sql, params) => this.keys.manager.query(sql, params));
    return keys.map((key) => summarize(key, months.get(key.id)));
  }

  async count(): Promise<number> {
    return this.keys.count();
  }

  /**
   * Sets the disabled flag (and updated_at, which replicas poll, and announces it to their change
   * feeds); false when no key has the id.
   */
  async setDisabled(id: string, disabled: boolean): Promise<boolean> {
    const result = await this.announcing((keys) => keys.update({ id }, { disabled }));
    if ((result.affected ?? 0) === 0) return false;
    await this.notifyById(id);
    return true;
  }

  /**
   * Sets or clears a key's expiry (and updated_at, announced like a disable); false when no key has
   * the id.
   */
  async setExpiry(id: string, expiresAt: Date | null): Promise<boolean> {
    const result = await this.announcing((keys) => keys.update({ id }, { expiresAt }));
    if ((result.affected ?? 0) === 0) return false;
    await this.notifyById(id);
    return true;
  }

  /**
   * Gives the key a new secret (returned here once); the current one keeps working until
   * `now + overlapMs`. A key keeps at most two secrets: rotating during an overlap retires the oldest
   * at once. Disabled or expired keys are not rotated. Checked and changed under a row lock, so
   * concurrent rotations apply one after the other.
   */
  async rotate(id: string, overlapMs: number, now = Date.now()): Promise<RotationResult> {
    const key = generateApiKey();
    const previousKeyEndsAt = new Date(now + overlapMs);
    const result = await this.announcing(async (keys): Promise<RotationResult> => {
      const current = await keys.findOne({ where: { id }, lock: { mode: 'pessimistic_write' } });
      if (!current) return { rotated: false, reason: 'unknown' };
      if (current.disabled) return { rotated: false, reason: 'disabled' };
      if (current.expiresAt !== null && current.expiresAt.getTime() <= now) {
        return { rotated: false, reason: 'expired' };
      }
      const retiredOldest = current.previousKeyEndsAt !== null && current.previousKeyEndsAt.getTime() > now;
      await keys.update(
        { id },
        {
          previousKeyHash: current.keyHash,
          previousKeyEndsAt,
          keyHash: hashApiKey(key),
          prefix: displayPrefix(key),
        },
      );
      return { rotated: true, key, previousKeyEndsAt, retiredOldest };
    });
    if (result.rotated) await this.notifyById(id);
    return result;
  }

  /** Every stored key, for the directory's full load. */
  async allStates(): Promise<StoredKey[]> {
    return (await this.keys.find()).map(stateOf);
  }

  /** Keys changed within the last `seconds` on the database clock, for the directory's refresh. */
  async statesChangedWithin(seconds: number): Promise<StoredKey[]> {
    const changed = await this.keys
      .createQueryBuilder('key')
      .where(`key.updated_at > now() - make_interval(secs => :seconds)`, { seconds })
      .getMany();
    return changed.map(stateOf);
  }

  /** Changes made through this service reach the listener at once (other processes' by polling). */
  onChange(listener: KeyChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Runs a change in a transaction that also announces it: listening servers hear it at the commit. */
  private announcing<T>(change: (keys: Repository<ApiKeyEntity>) => Promise<T>): Promise<T> {
    return this.keys.manager.transaction(async (manager: EntityManager) => {
      const result = await change(manager.getRepository(ApiKeyEntity));
      await announceChange({ query: (sql, params) => manager.query(sql, params as unknown[]) }, 'keys');
      return result;
    });
  }

  private async notifyById(id: string): Promise<void> {
    if (this.listeners.size === 0) return;
    const entity = await this.keys.findOneBy({ id });
    if (entity) this.notify(entity);
  }

  private notify(entity: ApiKeyEntity): void {
    const state = stateOf(entity);
    for (const listener of this.listeners) listener(state);
  }
}

function stateOf(entity: ApiKeyEntity): StoredKey {
  return {
    keyHash: entity.keyHash,
    disabled: entity.disabled,
    policy: { id: entity.id, rpm: entity.rpm, monthlyQuota: entity.monthlyQuota },
    expiresAt: entity.expiresAt?.getTime() ?? null,
    previousKeyHash: entity.previousKeyHash,
    previousKeyEndsAt: entity.previousKeyEndsAt?.getTime() ?? null,
  };
}

/** A key's state at `now`: disabled before expired before rotating. */
export function keyStateAt(
  key: Pick<StoredKey, 'disabled' | 'expiresAt' | 'previousKeyEndsAt'>,
  now: number,
): KeyState {
  if (key.disabled) return 'disabled';
  if (key.expiresAt !== null && now >= key.expiresAt) return 'expired';
  if (key.previousKeyEndsAt !== null && now < key.previousKeyEndsAt) return 'rotating';
  return 'active';
}

function summarize(
  entity: ApiKeyEntity,
  month: MonthStanding = { used: 0, lastUsedOn: null },
  now = Date.now(),
): ApiKeySummary {
  const state = stateOf(entity);
  const rotating = state.previousKeyEndsAt !== null && now < state.previousKeyEndsAt;
  return {
    id: entity.id,
    name: entity.name,
    prefix: entity.prefix,
    rpm: entity.rpm,
    monthly_quota: entity.monthlyQuota,
    disabled: entity.disabled,
    created_at: entity.createdAt.toISOString(),
    state: keyStateAt(state, now),
    expires_at: entity.expiresAt?.toISOString() ?? null,
    rotating_until: rotating ? entity.previousKeyEndsAt!.toISOString() : null,
    month_used: month.used,
    last_used_on: month.lastUsedOn,
  };
}
