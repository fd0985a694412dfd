import {
  type ArgumentsHost,
  Catch,
  type ExceptionFilter,
  HttpException,
  Logger,
  Optional,
} from '@nestjs/common';
import type { Request, Response } from 'express';
import { KnownRoutes } from '../routing/known-routes';
import { requestIdOf } from '../request-id/request-id';
import { ApiError } from './api-error';
import { ERROR_CATALOGUE, type ErrorCode } from './error-catalogue';
import { recordResponseError } from './response-error-code';
import { routeNotFoundLinks, routeNotFoundMessage } from './route-not-found';
import { errorEnvelope } from './error-envelope';

/**
 * The only place that writes error bodies: every failure, ours or the framework's, becomes
 * `{ error: { code, message, request_id } }` with the catalogue's status. It writes no header but
 * the `Link` of `/`'s 404, which names the ways in (`routeNotFoundLinks`).
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  /** `routes` lets an unknown route's message name the closest route (none: the plain message). */
  constructor(@Optional() private readonly routes?: KnownRoutes) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const req = http.getRequest<Request>();
    const res = http.getResponse<Response>();
    const requestId = requestIdOf(req);
    const error = this.toApiError(exception, req);
    const definition = ERROR_CATALOGUE[error.code];

    if (error.code === 'INTERNAL_ERROR' && !error.expected) {
      this.logger.error({ err: exception, requestId }, 'Request failed');
    }
    recordResponseError(res, error.code, exception);
    if (res.headersSent) {
      res.end();
      return;
    }
    if (error.code === 'ROUTE_NOT_FOUND') {
      const links = routeNotFoundLinks(req, this.routes?.all());
      if (links !== undefined) res.setHeader('Link', links);
    }
    res.status(definition.status).json(errorEnvelope(error.code, error.message, requestId));
  }

  private toApiError(exception: unknown, req: Request): ApiError {
    if (exception instanceof ApiError) return exception;
    const code = this.codeForFrameworkError(exception);
    if (code === 'ROUTE_NOT_FOUND') return new ApiError(code, routeNotFoundMessage(req, this.routes?.all()));
    return new ApiError(code);
  }

  /** Framework and Express errors: Nest's unknown-route 404, URI decoding failures (400), the rest 500. */
  private codeForFrameworkError(exception: unknown): ErrorCode {
    const status =
      exception instanceof HttpException
        ? exception.getStatus()
        : typeof (exception as { status?: unknown })?.status === 'number'
          ? (exception as { status: number }).status
          : 500;
    if (status === 404) return 'ROUTE_NOT_FOUND';
    if (status >= 400 && status < 500) return 'VALIDATION_ERROR';
    return 'INTERNAL_ERROR';
  }
}
