import type { CallHandler, ExecutionContext } from '@nestjs/common';
import { Registry } from 'prom-client';
import { lastValueFrom, throwError } from 'rxjs';
import { HttpMetrics } from './http-metrics';
import { StatementTimeoutInterceptor } from './statement-timeout.interceptor';

describe('StatementTimeoutInterceptor', () => {
  const context = {
    switchToHttp: () => ({ getRequest: () => ({ route: { path: '/v1/search' } }) }),
  } as unknown as ExecutionContext;
  const failing = (error: unknown): CallHandler => ({ handle: () => throwError(() => error) });

  async function countAfter(error: unknown): Promise<string> {
    const registry = new Registry();
    const interceptor = new StatementTimeoutInterceptor(new HttpMetrics(registry));
    await expect(lastValueFrom(interceptor.intercept(context, failing(error)))).rejects.toBe(error);
    return registry.metrics();
  }

  it('counts a cancelled statement (57014) by route, and passes the error on', async () => {
    const cancelled = Object.assign(new Error('canceling statement due to statement timeout'), {
      code: '57014',
    });
    expect(await countAfter(cancelled)).toContain('db_statement_timeouts_total{route="/v1/search"} 1');
    const wrapped = new Error('query failed', { cause: cancelled });
    expect(await countAfter(wrapped)).toContain('db_statement_timeouts_total{route="/v1/search"} 1');
  });

  it.each([new Error('boom'), Object.assign(new Error('unique'), { code: '23505' }), 'text', null])(
    'ignores %p',
    async (error) => {
      expect(await countAfter(error)).not.toContain('db_statement_timeouts_total{');
    },
  );
});
