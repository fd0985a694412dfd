import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import type { EntityManager, Repository } from 'typeorm';
import { announceChange } from '../database/change-feed';
import type { KeyPolicy } from '../limits/key-policy';
import { ApiKeyEntity } from './api-key.entity';
import { displayPrefix, generateApiKey, hashApiKey } from './api-key-format';

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

/** A stored key as the request path needs it: found by hash, never by the key itself. */
export interface StoredKey {
  keyHash: string;
  disabled: boolean;
  policy: KeyPolicy;
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
    });
    const saved = await this.announcing((keys) => keys.save(entity));
    this.notify(saved);
    return { key, summary: summarize(saved) };
  }

  async list(): Promise<ApiKeySummary[]> {
    return (await this.keys.find({ order: { createdAt: 'ASC', id: 'ASC' } })).map(summarize);
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
    if (this.listeners.size > 0) {
      const entity = await this.keys.findOneBy({ id });
      if (entity) this.notify(entity);
    }
    return true;
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
  };
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
