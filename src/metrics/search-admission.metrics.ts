import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Registry } from 'prom-client';
import { SearchAdmission } from '../catalog/search/search-admission';

/** The searches the search admission runs, holds waiting and has refused, read at scrape time. */
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
    gauge('search_running', 'Searches running', () => admission.runningCount);
    gauge('search_waiting', 'Searches waiting for their turn', () => admission.waitingCount);
    new Counter({
      name: 'search_refused_total',
      help: 'Searches refused because this replica could not answer them within 1 s (500 INTERNAL_ERROR)',
      registers: [registry],
      collect() {
        this.reset();
        this.inc(admission.refusedCount);
      },
    });
  }
}
