import { Module } from '@nestjs/common';
import { type ThrottlerModuleOptions, ThrottlerModule } from '@nestjs/throttler';
import type { AuthenticatedRequest } from '../auth/authenticated-request';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { PostgresThrottlerStorage } from './postgres-throttler.storage';
import { QuotaGuard } from './quota.guard';
import { RateLimitGuard } from './rate-limit.guard';
import { RedisThrottlerStorage } from './redis-throttler.storage';
import { encodeUsageKey } from './usage-storage';
import { UsageRepository } from './usage.repository';

export const USAGE_STORAGE = Symbol('USAGE_STORAGE');

/** The storage behind the limits: PostgreSQL by default, Redis for the minute when REDIS_URL is set. */
@Module({
  providers: [
    UsageRepository,
    {
      provide: USAGE_STORAGE,
      inject: [APP_CONFIG, UsageRepository],
      useFactory: (config: AppConfig, usage: UsageRepository) => {
        const postgres = new PostgresThrottlerStorage(usage);
        return config.redisUrl ? new RedisThrottlerStorage(config.redisUrl, usage, postgres) : postgres;
      },
    },
  ],
  exports: [USAGE_STORAGE],
})
class UsageStorageModule {}

/** The limits policy, in one place: one per-key window of 60 s whose limit is the key's own policy. */
function throttlerOptions(storage: PostgresThrottlerStorage | RedisThrottlerStorage): ThrottlerModuleOptions {
  const policyOf = (req: Record<string, unknown>) => (req as unknown as AuthenticatedRequest).apiKey;
  return {
    throttlers: [
      {
        name: 'default',
        ttl: 60_000,
        limit: (context) => policyOf(context.switchToHttp().getRequest()).rpm,
      },
    ],
    storage,
    setHeaders: false,
    // One counter per API key, shared by every route (the throttler would otherwise key per route).
    getTracker: (req) => {
      const policy = policyOf(req);
      return encodeUsageKey(policy.id, policy.monthlyQuota);
    },
    generateKey: (_context, tracker) => tracker,
  };
}

@Module({
  imports: [
    UsageStorageModule,
    ThrottlerModule.forRootAsync({
      imports: [UsageStorageModule],
      inject: [USAGE_STORAGE],
      useFactory: throttlerOptions,
    }),
  ],
  providers: [RateLimitGuard, QuotaGuard],
  exports: [RateLimitGuard, QuotaGuard],
})
export class QuotaModule {}
