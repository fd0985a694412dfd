import { Injectable } from '@nestjs/common';
import { Counter, Histogram, Registry } from 'prom-client';

/** The route label of requests that matched no route (unknown paths and methods). */
export const UNMATCHED_ROUTE = 'unmatched';

/** Request counts, latencies and error responses, labelled by route template (never the raw path). */
@Injectable()
export class HttpMetrics {
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly duration: Histogram<'method' | 'route' | 'status'>;
  private readonly rejections: Counter<'route' | 'status' | 'code'>;
  private readonly statementTimeouts: Counter<'route'>;
  private readonly searchOverloadRefusals: Counter;

  constructor(registry: Registry) {
    this.requests = new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests answered, by method, route template and status',
      labelNames: ['method', 'route', 'status'],
      registers: [registry],
    });
    this.duration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from the request reaching the application to the last byte of the response',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [registry],
    });
    this.rejections = new Counter({
      name: 'http_request_rejections_total',
      help: 'Error responses, by route template, status and error code',
      labelNames: ['route', 'status', 'code'],
      registers: [registry],
    });
    this.statementTimeouts = new Counter({
      name: 'db_statement_timeouts_total',
      help: 'Requests whose database statement was cancelled (PostgreSQL 57014, e.g. statement_timeout)',
      labelNames: ['route'],
      registers: [registry],
    });
    this.searchOverloadRefusals = new Counter({
      name: 'search_overload_refusals_total',
      help: 'Searches refused under overload (each also counts as a 500 INTERNAL_ERROR on /v1/search)',
      registers: [registry],
    });
  }

  observe(request: {
    method: string;
    route: string;
    status: number;
    seconds: number;
    errorCode?: string;
  }): void {
    const labels = { method: request.method, route: request.route, status: String(request.status) };
    this.requests.inc(labels);
    this.duration.observe(labels, request.seconds);
    if (request.errorCode !== undefined) {
      this.rejections.inc({ route: request.route, status: labels.status, code: request.errorCode });
    }
  }

  statementTimedOut(route: string): void {
    this.statementTimeouts.inc({ route });
  }

  searchRefusedUnderOverload(): void {
    this.searchOverloadRefusals.inc();
  }
}
