import { Injectable } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { ReplicaAllowances } from '../limits/replica-allowances';

/**
 * The optional Redis in terminus' terms: `up`, or `degraded` while the per-minute counters fall back
 * to PostgreSQL. Never `down` and never a throw: the service serves without Redis, so /health (the
 * catalog query's record and 200/500 rule) does not read it; `dependency_degraded` does.
 */
@Injectable()
export class RedisHealthIndicator {
  constructor(
    private readonly indicators: HealthIndicatorService,
    private readonly allowances: ReplicaAllowances,
  ) {}

  /** Whether a counter uses Redis at all (REDIS_URL set). */
  get configured(): boolean {
    return this.allowances.redisDegraded() !== null;
  }

  check() {
    const indicator = this.indicators.check('redis');
    return this.allowances.redisDegraded()
      ? indicator.degraded({ message: 'Redis is unavailable; per-minute limits are counted in PostgreSQL' })
      : indicator.up();
  }
}
