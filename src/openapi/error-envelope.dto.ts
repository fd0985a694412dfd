import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ERROR_CATALOGUE, type ErrorCode } from '../common/errors/error-catalogue';

export const ERROR_CODES = Object.keys(ERROR_CATALOGUE) as ErrorCode[];

@ApiSchema({ name: 'ErrorBody' })
export class ErrorBodyDto {
  @ApiProperty({ enum: ERROR_CODES, enumName: 'ErrorCode' })
  code!: ErrorCode;

  @ApiProperty({ type: 'string', description: 'Human-readable; not contract-critical' })
  message!: string;

  @ApiProperty({ type: 'string', description: 'Equals the X-Request-Id response header' })
  request_id!: string;
}

/** `{ error: { code, message, request_id } }`, the body of every error response. */
@ApiSchema({ name: 'ErrorEnvelope' })
export class ErrorEnvelopeDto {
  @ApiProperty({ type: ErrorBodyDto })
  error!: ErrorBodyDto;
}
