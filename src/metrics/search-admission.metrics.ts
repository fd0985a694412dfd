import { Injectable } from '@nestjs/common';
import { Gauge, Registry } from 'prom-client';
import { SearchAdmission } from '../catalog/search/search-admission';

/** The search admission's adaptive concurrency limit and what it holds, read at scrape time. */
@Injectable()
export class SearchAdmissionMetrics {
  constructor(registry: Registry, admission: SearchAdmission) {
    const gauge = (name: string, help: string, read: () => number) =>
      new Gauge({
        name,
        help,
        registers: [registry],
        collect() {
          this.set(read());
        },
      });
    gauge(
      'search_concurrency_limit',
      'Searches that may run at once (the adaptive limit)',
      () => admission.concurrencyLimit,
    );
    gauge('search_running', 'Searches running', () => admission.running);
    gauge('search_waiting', 'Searches waiting for their turn (at most 150 ms)', () => admission.waiting);
  }
}
