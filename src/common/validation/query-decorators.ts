import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

const INTEGER_TEXT = /^[+-]?[0-9]+$/;

/** What a 400 says of an integer query parameter out of its range or not an integer. */
export function integerParamMessage(name: string, min: number, max: number): string {
  return `${name} must be an integer from ${min} to ${max}`;
}

/**
 * An optional integer query parameter: an optional sign and ASCII digits ("01" is 1), within
 * [min, max]. Anything else ("1.5", "1e3", "0x10", "", " 1") stays a string and fails IsInt.
 */
export function IntegerQueryParam(name: string, min: number, max: number): PropertyDecorator {
  const message = integerParamMessage(name, min, max);
  return applyDecorators(
    IsOptional(),
    Transform(({ value }) => (typeof value === 'string' && INTEGER_TEXT.test(value) ? Number(value) : value)),
    IsInt({ message }),
    Min(min, { message }),
    Max(max, { message }),
  );
}
