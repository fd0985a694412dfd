import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import { type Observable, catchError, throwError } from 'rxjs';
import { authenticatedKey } from '../auth/authenticated-request';
import { ApiError } from '../common/errors/api-error';
import { AllowanceStorage } from './allowance.storage';
import { counterKey } from './limits-policy';

/**
 * A request the handler refuses without serving it (an `ApiError` marked `uncharged`: a search
 * refused under overload) gets its unit of the key's monthly quota back, so overload costs the
 * client no quota. Its minute stays counted: a client retrying at once still meets its rate limit.
 * Interceptors run after the guards, so a request that reaches one was counted in both windows.
 */
@Injectable()
export class UnchargedRefusalInterceptor implements NestInterceptor {
  constructor(private readonly allowances: AllowanceStorage) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(
      catchError((error: unknown) => {
        if (error instanceof ApiError && error.uncharged) {
          const key = authenticatedKey(context.switchToHttp().getRequest());
          if (key) this.allowances.refund(counterKey('month', key.id));
        }
        return throwError(() => error);
      }),
    );
  }
}
