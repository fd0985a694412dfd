import { EventEmitter } from 'node:events';
import type { Request, Response } from 'express';
import { Registry } from 'prom-client';
import { ApiError } from '../common/errors/api-error';
import { recordResponseError } from '../common/errors/response-error-code';
import { HttpMetrics } from './http-metrics';
import { HttpMetricsMiddleware } from './http-metrics.middleware';

describe('HttpMetricsMiddleware', () => {
  const cancelled = Object.assign(new Error('canceling statement due to statement timeout'), {
    code: '57014',
  });

  /** One request through the middleware: routed to `/v1/search`, answered `status` by the filter. */
  async function metricsAfter(status: number, cause?: unknown): Promise<string> {
    const registry = new Registry();
    const middleware = new HttpMetricsMiddleware(new HttpMetrics(registry));
    const req = { method: 'GET' } as Request;
    const res = Object.assign(new EventEmitter(), { statusCode: 200 }) as unknown as Response;
    middleware.use(req, res, () => undefined);
    // Express sets the matched route as the request is routed; the filter records what it answered.
    req.route = { path: '/v1/search' };
    res.statusCode = status;
    if (status >= 400)
      recordResponseError(res, status === 500 ? 'INTERNAL_ERROR' : 'VALIDATION_ERROR', cause);
    res.emit('finish');
    return registry.metrics();
  }

  it('counts a 500 made from a cancelled statement, by route, beside the request itself', async () => {
    const metrics = await metricsAfter(500, cancelled);
    expect(metrics).toContain('db_statement_timeouts_total{route="/v1/search"} 1');
    expect(metrics).toContain('http_requests_total{method="GET",route="/v1/search",status="500"} 1');
    expect(await metricsAfter(500, new Error('wrapped', { cause: cancelled }))).toContain(
      'db_statement_timeouts_total{route="/v1/search"} 1',
    );
  });

  it('counts a search refused under overload (a 500 given on purpose), not a failed search', async () => {
    const refusal = ApiError.uncharged('INTERNAL_ERROR', 'overloaded', { 'Retry-After': '1' });
    expect(await metricsAfter(500, refusal)).toContain('search_overload_refusals_total 1');
    expect(await metricsAfter(500, ApiError.expected('INTERNAL_ERROR'))).toContain(
      'search_overload_refusals_total 1',
    );
    for (const metrics of [await metricsAfter(500, new Error('boom')), await metricsAfter(200)]) {
      expect(metrics).toContain('search_overload_refusals_total 0');
    }
  });

  it('counts no statement timeout for other failures or successes', async () => {
    for (const metrics of [
      await metricsAfter(500, new Error('boom')),
      await metricsAfter(400, cancelled),
      await metricsAfter(200),
    ]) {
      expect(metrics).not.toContain('db_statement_timeouts_total{');
    }
  });
});
