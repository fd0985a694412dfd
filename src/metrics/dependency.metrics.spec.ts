import { Registry } from 'prom-client';
import type { ReplicaAllowances } from '../limits/replica-allowances';
import { DependencyMetrics } from './dependency.metrics';

function allowances(degraded: () => boolean | null): ReplicaAllowances {
  return { redisDegraded: degraded } as unknown as ReplicaAllowances;
}

describe('DependencyMetrics', () => {
  it('reports Redis as degraded (1) while the counters fall back to PostgreSQL, 0 once it is back', async () => {
    const registry = new Registry();
    let degraded = false;
    new DependencyMetrics(
      registry,
      allowances(() => degraded),
    );
    expect(await registry.metrics()).toContain('dependency_degraded{dependency="redis"} 0');
    degraded = true;
    expect(await registry.metrics()).toContain('dependency_degraded{dependency="redis"} 1');
    degraded = false;
    expect(await registry.metrics()).toContain('dependency_degraded{dependency="redis"} 0');
  });

  it('reports nothing without REDIS_URL (no counter uses Redis)', async () => {
    const registry = new Registry();
    new DependencyMetrics(
      registry,
      allowances(() => null),
    );
    expect(await registry.metrics()).not.toContain('dependency_degraded');
  });
});
