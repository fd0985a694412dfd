import { Injectable } from '@nestjs/common';
import { Counter, Registry } from 'prom-client';
import { HealthService } from '../health/health.service';

/** The health checks answered, on the API port and on HEALTH_PORT alike, read at scrape time. */
@Injectable()
export class HealthMetrics {
  constructor(registry: Registry, health: HealthService) {
    new Counter({
      name: 'health_checks_total',
      help: 'Health checks answered: ok (200) or failed (500: the catalog query failed, or the drain started)',
      labelNames: ['result'],
      registers: [registry],
      collect() {
        this.reset();
        this.inc({ result: 'ok' }, health.answered.ok);
        this.inc({ result: 'failed' }, health.answered.failed);
      },
    });
  }
}
