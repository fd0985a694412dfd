import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { type ClassConstructor, plainToInstance } from 'class-transformer';
import { getMetadataStorage, validateSync } from 'class-validator';
import { ApiError } from '../errors/api-error';
import { parseRawQuery, queryText } from './raw-query';
import { unknownParameterMessage } from './unknown-parameter';
import { ValidQueryMemo } from './valid-query-memo';
import { requestOf } from '../http-context';
import { VALIDATED_QUERY, markingHandler } from '../routing/handler-marks';

/**
 * A pipe, so it runs after the guards (the contract's order of checks). Unknown names come from the
 * DTO's metadata, which catches `__proto__` where an instance-key whitelist would not.
 */
export function validateQuery<T extends object>(dto: ClassConstructor<T>, raw: Record<string, string>): T {
  const known = knownParameters(dto);
  const unknown = Object.keys(raw).find((name) => !known.has(name));
  if (unknown !== undefined) {
    throw new ApiError('VALIDATION_ERROR', unknownParameterMessage(unknown, known));
  }
  // A DTO that declares no parameter (NoQueryDto) has nothing to convert or check: the title
  // lookup skips class-transformer and class-validator (~1.5% of its CPU on Node 24).
  if (known.size === 0) return new dto();
  const instance = plainToInstance(dto, { ...raw });
  const [error] = validateSync(instance, { stopAtFirstError: true, forbidUnknownValues: false });
  if (error) {
    const message = Object.values(error.constraints ?? {})[0] ?? `${error.property} is invalid`;
    throw new ApiError('VALIDATION_ERROR', `${message}.`);
  }
  return instance;
}

const parametersByDto = new WeakMap<ClassConstructor<object>, ReadonlySet<string>>();

/** The parameter names a DTO declares (its validated properties), read once per class. */
export function knownParameters(dto: ClassConstructor<object>): ReadonlySet<string> {
  let known = parametersByDto.get(dto);
  if (!known) {
    known = new Set(
      getMetadataStorage()
        .getTargetValidationMetadatas(dto, '', true, false)
        .map((metadata) => metadata.propertyName),
    );
    parametersByDto.set(dto, known);
  }
  return known;
}

const validQueries = new ValidQueryMemo();

/**
 * `@ValidatedQuery(SomeQueryDto)`: the request's query, strictly parsed and validated; a query text
 * validated before is answered with the same (frozen) DTO (`ValidQueryMemo`).
 */
export const ValidatedQuery = markingHandler(
  VALIDATED_QUERY,
  createParamDecorator((dto: ClassConstructor<object>, ctx: ExecutionContext) => {
    const url = requestOf(ctx).originalUrl;
    const text = queryText(url);
    return (
      validQueries.get(dto, text) ?? validQueries.remember(dto, text, validateQuery(dto, parseRawQuery(url)))
    );
  }),
);
