import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request, Response } from 'express';
import { assignRequestId } from './request-id';

/** The request's id (see `assignRequestId`), for `meta.request_id`. */
export const RequestId = createParamDecorator((_data: unknown, ctx: ExecutionContext): string => {
  const http = ctx.switchToHttp();
  return assignRequestId(http.getRequest<Request>(), http.getResponse<Response>());
});
