import { Controller, Get } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentKey } from '../auth/current-key.decorator';
import type { KeyPolicy } from '../limits/key-policy';
import { LIMITS } from '../limits/limit-table';
import { RequestId } from '../common/request-id/request-id.decorator';
import { NoQueryDto } from '../common/validation/no-query.dto';
import { ValidatedQuery } from '../common/validation/validated-query.decorator';
import {
  ApiErrorResponses,
  ApiOkEnvelope,
  ApiRequestIdHeader,
  METERED_ROUTE_ERRORS,
} from '../openapi/api-responses.decorator';
import { BEARER_SCHEME } from '../openapi/openapi-document';
import { QuotaFree } from '../limits/quota-free.decorator';
import { UsageResponseDto } from './usage.dto';
import { UsageService, type KeyUsage } from './usage.service';

/** Every metered error but the quotas': usage is answered even when a quota is exhausted. */
const USAGE_ERRORS = METERED_ROUTE_ERRORS.filter(
  (code) => !LIMITS.some((row) => row.quota && row.refusal === code),
);

@Controller('v1')
@ApiTags('usage')
@ApiBearerAuth(BEARER_SCHEME)
@ApiRequestIdHeader()
export class UsageController {
  constructor(private readonly usage: UsageService) {}

  /**
   * The key's policy and standing. Counted in the minute like any request (so it cannot be
   * flooded), but not in the month, and answered even when the quota is exhausted.
   */
  @Get('usage')
  @QuotaFree()
  @ApiOperation({
    summary:
      "The key's limits and standing; counted in the minute but not in the month, and answered at an exhausted quota",
    description:
      "The calling key's id and policy, and its use of the current minute and month with when each " +
      'resets. Takes no query parameters.',
  })
  @ApiOkEnvelope(UsageResponseDto, 'metered', 'The key, its policy and both windows')
  @ApiErrorResponses('metered', ...USAGE_ERRORS)
  async get(
    @CurrentKey() key: KeyPolicy,
    @ValidatedQuery(NoQueryDto) _query: NoQueryDto,
    @RequestId() requestId: string,
  ): Promise<{ data: [KeyUsage]; meta: { request_id: string } }> {
    return { data: [await this.usage.of(key)], meta: { request_id: requestId } };
  }
}
