import { Injectable } from '@nestjs/common';
import { Gauge, Registry } from 'prom-client';
import { SearchAdmission } from '../catalog/search/search-admission';

/** The searches the search admission runs and holds waiting, read at scrape time. */
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
    gauge('search_running', 'Searches running', () => admission.running);
    gauge(
      'search_waiting',
      'Searches waiting for their turn (at most 150 ms when 8 or more are in flight)',
      () => admission.waiting,
    );
  }
}
