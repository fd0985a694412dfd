import { type ArgumentsHost, Catch, type ExceptionFilter, Inject, Injectable } from '@nestjs/common';
import { authenticatedKey } from '../auth/authenticated-request';
import { type LimitTable, counterKey } from '../common/access/limit-table';
import { AllExceptionsFilter } from '../common/errors/all-exceptions.filter';
import { ApiError } from '../common/errors/api-error';
import { AllowanceStorage } from './allowance.storage';
import { LIMIT_TABLE } from './limit-table.token';

/**
 * A request the handler refuses without serving it (an `ApiError` marked `uncharged`: a search
 * refused under overload) gets its unit of each quota (the month) back, so overload costs the
 * client no quota; then the envelope filter answers it like any error. Its minute stays counted: a
 * client retrying at once still meets its rate limit. Only the handler raises `uncharged`, so the
 * request was counted by the limits guard before it.
 *
 * An exception filter rather than an interceptor: it runs only when the route throws, so a served
 * request pays nothing for it (an interceptor runs every request through RxJS, bench/RESULTS.md).
 */
@Catch(ApiError)
@Injectable()
export class UnchargedRefusalFilter implements ExceptionFilter {
  private readonly quotas: LimitTable;
  private readonly envelope = new AllExceptionsFilter();

  constructor(
    private readonly allowances: AllowanceStorage,
    @Inject(LIMIT_TABLE) limits: LimitTable,
  ) {
    this.quotas = limits.filter((row) => row.quota);
  }

  catch(error: ApiError, host: ArgumentsHost): void {
    if (error.uncharged) {
      const key = authenticatedKey(host.switchToHttp().getRequest());
      if (key) for (const row of this.quotas) this.allowances.refund(counterKey(row.name, key.id));
    }
    this.envelope.catch(error, host);
  }
}
