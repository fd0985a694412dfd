import { type ExecutionContext, createParamDecorator } from '@nestjs/common';
import { requestOf } from '../common/http-context';
import { ApiError } from '../common/errors/api-error';
import { IMDB_ID_PATTERN } from './title';

/** The `{imdb_id}` path parameter, or the contract's 400: `tt` and ASCII digits, nothing else. */
export function imdbIdOf(value: unknown): string {
  if (typeof value !== 'string' || !IMDB_ID_PATTERN.test(value)) {
    throw new ApiError('VALIDATION_ERROR', 'imdb_id must match the pattern ^tt\\d+$.');
  }
  return value;
}

/**
 * `@ImdbIdParam()`: the checked `{imdb_id}`. Nest builds a handler's arguments after the guards, so
 * it runs where a pipe would (the contract's order of checks); unlike a pipe, it makes no promise
 * per request.
 */
export const ImdbIdParam = createParamDecorator((_data: unknown, ctx: ExecutionContext): string =>
  imdbIdOf(requestOf(ctx).params.imdb_id),
);
