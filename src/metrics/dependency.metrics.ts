import { Injectable } from '@nestjs/common';
import { Gauge, Registry } from 'prom-client';
import { RedisHealthIndicator } from '../health/redis.health';

/**
 * The optional dependencies whose loss degrades the service without stopping it, read at scrape
 * time from their health indicators: /health stays 200 for them (its record and 200/500 rule are the
 * catalog query's), so this gauge and the CatalogApiRedisDegraded alert are where a lost Redis
 * shows. Reported only where REDIS_URL is set: elsewhere PostgreSQL counts by design, and a 1 would
 * read as a fault.
 */
@Injectable()
export class DependencyMetrics {
  constructor(registry: Registry, redis: RedisHealthIndicator) {
    if (!redis.configured) return;
    new Gauge({
      name: 'dependency_degraded',
      help: 'Whether an optional dependency is unavailable and the service works around it (1): redis, the per-minute counters then counted in PostgreSQL',
      labelNames: ['dependency'],
      registers: [registry],
      collect() {
        this.set({ dependency: 'redis' }, redis.check().redis.status === 'degraded' ? 1 : 0);
      },
    });
  }
}
