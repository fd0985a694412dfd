import { Injectable, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { responseErrorCause } from '../common/errors/response-error-code';
import { errorCodeLabel } from './error-code-label';
import { HttpMetrics, UNMATCHED_ROUTE } from './http-metrics';
import { isSearchOverloadRefusal } from './overload-refusal';
import { routeTemplate } from './route-template';
import { isQueryCanceled } from './statement-timeout';

/**
 * Observes every request once its response has been sent (requests aborted earlier are not counted),
 * and counts the 500s the exception filter made from a cancelled statement and the searches refused
 * under overload.
 */
@Injectable()
export class HttpMetricsMiddleware implements NestMiddleware {
  constructor(private readonly metrics: HttpMetrics) {}

  use(req: Request, res: Response, next: NextFunction): void {
    const started = process.hrtime.bigint();
    // Express names the route being run in req.route: here, this middleware's own catch-all. A
    // request that matched an API route has another one by the time its response is sent.
    const ownRoute: unknown = req.route;
    res.once('finish', () => {
      const matched = req.route !== undefined && req.route !== ownRoute;
      const route = (matched && routeTemplate(req)) || UNMATCHED_ROUTE;
      this.metrics.observe({
        method: req.method,
        route,
        status: res.statusCode,
        seconds: Number(process.hrtime.bigint() - started) / 1e9,
        errorCode: res.statusCode >= 400 ? errorCodeLabel(res, matched) : undefined,
      });
      if (res.statusCode >= 500 && isQueryCanceled(responseErrorCause(res)))
        this.metrics.statementTimedOut(route);
      if (isSearchOverloadRefusal(res, route)) this.metrics.searchRefusedUnderOverload();
    });
    next();
  }
}
