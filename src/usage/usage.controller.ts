import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentKey, type KeyPolicy, NoQueryDto, QuotaFree, RequestId, ValidatedQuery } from '../route-kit';
import { USAGE_EXAMPLE, UsageResponseDto } from './usage.dto';
import { UsageService, type KeyUsage } from './usage.service';

@Controller('v1')
@ApiTags('usage')
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
  @QuotaFree.ok(UsageResponseDto, 'The key, its policy and both windows', { example: USAGE_EXAMPLE })
  async get(
    @CurrentKey() key: KeyPolicy,
    @ValidatedQuery(NoQueryDto) _query: NoQueryDto,
    @RequestId() requestId: string,
  ): Promise<{ data: [KeyUsage]; meta: { request_id: string } }> {
    return { data: [await this.usage.of(key)], meta: { request_id: requestId } };
  }
}
