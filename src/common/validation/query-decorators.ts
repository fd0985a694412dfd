import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

const INTEGER_TEXT = /^[+-]?[0-9]+$/;

/**
 * An optional integer query parameter: an optional sign and ASCII digits ("01" is 1), within
 * [min, max]. Anything else ("1.5", "1e3", "0x10", "", " 1") stays a string and fails IsInt.
 */
export function IntegerQueryParam(name: string, min: number, max: number): PropertyDecorator {
  const message = `${name} must be an integer from ${min} to ${max}`;
  return applyDecorators(
    IsOptional(),
    Transform(({ value }) => (typeof value === 'string' && INTEGER_TEXT.test(value) ? Number(value) : value)),
    IsInt({ message }),
    Min(min, { message }),
    Max(max, { message }),
  );
}
