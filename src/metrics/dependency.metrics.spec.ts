import { HealthIndicatorService } from '@nestjs/terminus';
import { Registry } from 'prom-client';
import { RedisHealthIndicator } from '../health/redis.health';
import type { ReplicaAllowances } from '../limits/replica-allowances';
import { DependencyMetrics } from './dependency.metrics';

function redis(degraded: () => boolean | null): RedisHealthIndicator {
  const allowances = { redisDegraded: degraded } as unknown as ReplicaAllowances;
  return new RedisHealthIndicator(new HealthIndicatorService(), allowances);
}

describe('RedisHealthIndicator and DependencyMetrics', () => {
  it('are up, then degraded (1) while the counters fall back to PostgreSQL, then up (0) again', async () => {
    const registry = new Registry();
    let degraded = false;
    const indicator = redis(() => degraded);
    new DependencyMetrics(registry, indicator);
    expect(indicator.check()).toEqual({ redis: { status: 'up' } });
    expect(await registry.metrics()).toContain('dependency_degraded{dependency="redis"} 0');
    degraded = true;
    expect(indicator.check()).toEqual({
      redis: {
        status: 'degraded',
        message: 'Redis is unavailable; per-minute limits are counted in PostgreSQL',
      },
    });
    expect(await registry.metrics()).toContain('dependency_degraded{dependency="redis"} 1');
    degraded = false;
    expect(await registry.metrics()).toContain('dependency_degraded{dependency="redis"} 0');
  });

  it('report nothing without REDIS_URL (no counter uses Redis)', async () => {
    const registry = new Registry();
    new DependencyMetrics(
      registry,
      redis(() => null),
    );
    expect(await registry.metrics()).not.toContain('dependency_degraded');
  });
});
