import { type ExecutionContext, Module } from '@nestjs/common';
import { type ThrottlerModuleOptions, ThrottlerModule } from '@nestjs/throttler';
import { RouteMetadataModule } from '../common/routing/route-metadata';
import { type AuthenticatedKey, authenticatedKey } from '../auth/authenticated-request';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { Database } from '../database/database';
import { AllowanceStorage } from './allowance.storage';
import { FailoverAllowanceStore } from './failover-allowance.store';
import { LimitsGuard } from './limits.guard';
import { type LimitName, MINUTE_TTL_MS, counterKey, limitOf, monthTtlMs } from './limits-policy';
import { PostgresAllowanceStore } from './postgres-allowance.store';
import { UnchargedRefusalInterceptor } from './uncharged-refusal.interceptor';
import { UsageController } from './usage.controller';
import { UsageService } from './usage.service';

/** The shared counters: minute in PostgreSQL (UNLOGGED) or Redis, month in durable PostgreSQL. */
@Module({
  providers: [
    {
      provide: AllowanceStorage,
      inject: [APP_CONFIG, Database],
      useFactory: (config: AppConfig, db: Database) => {
        const minute = new PostgresAllowanceStore(db, 'rate_counters');
        return new AllowanceStorage({
          minute: config.redisUrl ? new FailoverAllowanceStore(config.redisUrl, minute) : minute,
          month: new PostgresAllowanceStore(db, 'quota_counters'),
        });
      },
    },
  ],
  exports: [AllowanceStorage],
})
class AllowanceModule {}

function keyOf(req: object): AuthenticatedKey {
  const key = authenticatedKey(req);
  if (!key) throw new Error('The limits ran before authentication');
  return key;
}

const limitFor = (name: LimitName) => (context: ExecutionContext) =>
  limitOf(name, keyOf(context.switchToHttp().getRequest()));

/**
 * Two named throttlers, limits resolved per request from the key: `minute` (the key's rpm, windows
 * of 60 s) and `month` (its quota, windows ending at the next UTC month). Listed in the contract's
 * order; the guard keeps it (a static ttl sorts before a function).
 */
function throttlerOptions(storage: AllowanceStorage): ThrottlerModuleOptions {
  return {
    throttlers: [
      { name: 'minute', ttl: MINUTE_TTL_MS, limit: limitFor('minute') },
      { name: 'month', ttl: () => monthTtlMs(Date.now()), limit: limitFor('month') },
    ],
    storage,
    // The contract's headers are not the throttler's: LimitsGuard writes them.
    setHeaders: false,
    // One counter per API key and limit, shared by every route.
    getTracker: (req) => keyOf(req).id,
    generateKey: (_context, tracker, name) => counterKey(name, tracker),
  };
}

@Module({
  imports: [
    AllowanceModule,
    RouteMetadataModule,
    ThrottlerModule.forRootAsync({
      imports: [AllowanceModule],
      inject: [AllowanceStorage],
      useFactory: throttlerOptions,
    }),
  ],
  controllers: [UsageController],
  providers: [LimitsGuard, UnchargedRefusalInterceptor, UsageService],
  // The interceptor is route-scoped (the search route): modules that use it get its storage too.
  exports: [LimitsGuard, UnchargedRefusalInterceptor, AllowanceModule],
})
export class LimitsModule {}
