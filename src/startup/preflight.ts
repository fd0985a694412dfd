import { accessSync, constants } from 'node:fs';
import { resolve } from 'node:path';
import type { AppConfig } from '../config/app-config';
import { embeddedDataDir } from '../database/embedded-engine-options';
import { checkHeapBudget } from './heap-budget';
import { dataDirFailure, redisFailure } from './startup-failure';

/** How long the start waits for Redis to answer before refusing to start. */
const REDIS_CHECK_TIMEOUT_MS = 3_000;

/** Checks before Nest starts, so a bad REDIS_URL or CACHE_BUDGET_MB is one line, not a framework error. */
export async function preflight(config: AppConfig): Promise<void> {
  checkHeapBudget(config);
  if (config.redisUrl) await checkRedis(config.redisUrl);
}

/** Claims DATA_DIR for this process, checks it is writable; the PGlite folder in it, null for `memory://`. */
export function prepareDataDir(dataDir: string): string | null {
  if (dataDir.startsWith('memory://')) return null;
  const shown = resolve(dataDir);
  try {
    const pgliteDir = embeddedDataDir(dataDir);
    accessSync(shown, constants.W_OK);
    accessSync(pgliteDir, constants.W_OK);
    return pgliteDir;
  } catch (error) {
    throw dataDirFailure(error, shown);
  }
}

/** Connects once and PINGs; the running service then tolerates Redis outages (see the quota module). */
export async function checkRedis(url: string): Promise<void> {
  // Loaded here: a server without REDIS_URL never needs ioredis.
  const { default: Redis } = await import('ioredis');
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: REDIS_CHECK_TIMEOUT_MS,
    commandTimeout: REDIS_CHECK_TIMEOUT_MS,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  // The socket's error explains a refused connect better than the rejection ("Connection is
  // closed"); listening also keeps ioredis from printing it.
  let socketError: unknown;
  redis.on('error', (error) => (socketError ??= error));
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    throw redisFailure(socketError ?? error, url);
  } finally {
    redis.disconnect();
  }
}
