import {
  type CallHandler,
  type ExecutionContext,
  Inject,
  Injectable,
  type NestInterceptor,
} from '@nestjs/common';
import { type Observable, catchError, throwError } from 'rxjs';
import { authenticatedKey } from '../auth/authenticated-request';
import { type LimitTable, counterKey } from '../common/access/limit-table';
import { ApiError } from '../common/errors/api-error';
import { AllowanceStorage } from './allowance.storage';
import { LIMIT_TABLE } from './limit-table.token';

/**
 * A request the handler refuses without serving it (an `ApiError` marked `uncharged`: a search
 * refused under overload) gets its unit of each quota (the month) back, so overload costs the
 * client no quota. Its minute stays counted: a client retrying at once still meets its rate limit.
 * Interceptors run after the guards, so a request that reaches one was counted in both windows.
 */
@Injectable()
export class UnchargedRefusalInterceptor implements NestInterceptor {
  private readonly quotas: LimitTable;

  constructor(
    private readonly allowances: AllowanceStorage,
    @Inject(LIMIT_TABLE) limits: LimitTable,
  ) {
    this.quotas = limits.filter((row) => row.quota);
  }

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(
      catchError((error: unknown) => {
        if (error instanceof ApiError && error.uncharged) {
          const key = authenticatedKey(context.switchToHttp().getRequest());
          if (key) for (const row of this.quotas) this.allowances.refund(counterKey(row.name, key.id));
        }
        return throwError(() => error);
      }),
    );
  }
}
