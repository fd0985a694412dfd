import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import type { Request } from 'express';
import { type Observable, tap } from 'rxjs';
import { HttpMetrics, UNMATCHED_ROUTE } from './http-metrics';
import { routeTemplate } from './route-template';

/** PostgreSQL's query_canceled: what a statement_timeout raises. */
export const QUERY_CANCELED = '57014';

/**
 * Counts handler failures caused by a cancelled statement. It sees the error before the exception
 * filter turns it into a 500, so the catalog code needs no hook of its own.
 */
@Injectable()
export class StatementTimeoutInterceptor implements NestInterceptor {
  constructor(private readonly metrics: HttpMetrics) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(
      tap({
        error: (error: unknown) => {
          if (isQueryCanceled(error))
            this.metrics.statementTimedOut(
              routeTemplate(context.switchToHttp().getRequest<Request>()) ?? UNMATCHED_ROUTE,
            );
        },
      }),
    );
  }
}

function isQueryCanceled(error: unknown): boolean {
  const code = (value: unknown) =>
    typeof value === 'object' && value !== null ? (value as { code?: unknown }).code : undefined;
  return (
    code(error) === QUERY_CANCELED || code((error as { cause?: unknown } | null)?.cause) === QUERY_CANCELED
  );
}
