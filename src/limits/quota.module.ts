import { type ExecutionContext, Module } from '@nestjs/common';
import { type ThrottlerModuleOptions, type ThrottlerOptions, ThrottlerModule } from '@nestjs/throttler';
import type { KeyPolicy } from './key-policy';
import { LIMITS, type LimitRow, type LimitTable, counterKeyOf } from './limit-table';
import { RouteMetadata, RouteMetadataModule } from '../common/routing/route-metadata';
import { authenticatedKey } from './authenticated-key';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { Database } from '../database/database';
import type { AllowanceStore } from './allowance-store';
import { ReplicaAllowances } from './replica-allowances';
import { FailoverAllowanceStore } from './failover-allowance.store';
import { LIMIT_TABLE } from './limit-table.token';
import { LimitsGuard } from './limits.guard';
import { PostgresAllowanceStore } from './postgres-allowance.store';
import { isQuotaFreeRoute } from './quota-free.decorator';
import { requestOf } from '../common/http-context';

/** A limit's shared counter: its PostgreSQL table, with Redis in front when the row allows it and REDIS_URL is set. */
function counterStore(row: LimitRow, config: AppConfig, db: Database): AllowanceStore {
  const table = new PostgresAllowanceStore(db, row.counters);
  return row.counters.redis && config.redisUrl ? new FailoverAllowanceStore(config.redisUrl, table) : table;
}

/** The limit table, and the shared counters of each of its rows. */
@Module({
  providers: [
    { provide: LIMIT_TABLE, useValue: LIMITS },
    {
      provide: ReplicaAllowances,
      inject: [APP_CONFIG, Database, LIMIT_TABLE],
      useFactory: (config: AppConfig, db: Database, limits: LimitTable) =>
        new ReplicaAllowances(
          Object.fromEntries(limits.map((row) => [row.name, counterStore(row, config, db)])),
        ),
    },
  ],
  exports: [LIMIT_TABLE, ReplicaAllowances],
})
class AllowanceModule {}

function keyOf(req: object): KeyPolicy {
  const key = authenticatedKey(req);
  if (!key) throw new Error('The limits ran before authentication');
  return key;
}

/**
 * One named throttler per row: the window is its ttl, the key's limit for it its limit; a quota
 * skips the routes marked `@QuotaFree()`.
 */
function throttlerOf(row: LimitRow, routes: RouteMetadata): ThrottlerOptions {
  return {
    name: row.name,
    ttl: () => row.window.ttlMs(Date.now()),
    limit: (context: ExecutionContext) => row.limit.of(keyOf(requestOf(context))),
    ...(row.quota ? { skipIf: (context: ExecutionContext) => isQuotaFreeRoute(routes, context) } : {}),
  };
}

function throttlerOptions(
  storage: ReplicaAllowances,
  limits: LimitTable,
  routes: RouteMetadata,
): ThrottlerModuleOptions {
  return {
    // In the table's order; LimitsGuard checks them in that order (the contract's).
    throttlers: limits.map((row) => throttlerOf(row, routes)),
    storage,
    // The contract's headers are not the throttler's: LimitsGuard writes them.
    setHeaders: false,
    // One counter per API key and limit, shared by every route.
    getTracker: (req) => keyOf(req).id,
    generateKey: (context, _tracker, name) => counterKeyOf(name, keyOf(requestOf(context))),
  };
}

/**
 * Quota: what a key may spend. The per-minute limit and the monthly quota as named throttlers of
 * @nestjs/throttler over the shared counters (a custom ThrottlerStorage), enforced by `LimitsGuard`.
 */
@Module({
  imports: [
    AllowanceModule,
    RouteMetadataModule,
    ThrottlerModule.forRootAsync({
      imports: [AllowanceModule, RouteMetadataModule],
      inject: [ReplicaAllowances, LIMIT_TABLE, RouteMetadata],
      useFactory: throttlerOptions,
    }),
  ],
  providers: [LimitsGuard],
  exports: [LimitsGuard, AllowanceModule],
})
export class QuotaModule {}
