import { Injectable } from '@nestjs/common';
import { Gauge, Registry } from 'prom-client';
import { ApiKeyDirectory } from '../auth/api-key-directory';

/** A key expiring within this long is counted by `api_keys_expiring_soon`. */
export const KEY_EXPIRING_SOON_MS = 7 * 86_400_000;

/**
 * Keys that still work but expire within 7 days, from the replica's key directory at scrape time.
 * No per-key label: every replica reports the same count, and operators find the keys with
 * `keys:list`.
 */
@Injectable()
export class KeyLifecycleMetrics {
  constructor(registry: Registry, directory: ApiKeyDirectory) {
    new Gauge({
      name: 'api_keys_expiring_soon',
      help: 'API keys, enabled and not yet expired, whose expiry is within 7 days',
      registers: [registry],
      collect() {
        this.set(directory.countExpiringWithin(KEY_EXPIRING_SOON_MS));
      },
    });
  }
}
