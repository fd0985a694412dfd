import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { requestIdOf } from './request-id';
import { requestOf } from '../http-context';

/** The request's id (see `assignRequestId`), for `meta.request_id`. */
export const RequestId = createParamDecorator((_data: unknown, ctx: ExecutionContext): string =>
  requestIdOf(requestOf(ctx)),
);
