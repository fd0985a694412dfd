import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { requestIdOf } from './request-id';

/** The request's id (see `assignRequestId`), for `meta.request_id`. */
export const RequestId = createParamDecorator((_data: unknown, ctx: ExecutionContext): string =>
  requestIdOf(ctx.switchToHttp().getRequest<Request>()),
);
