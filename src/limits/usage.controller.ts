import { Controller, Get, Req } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { SkipThrottle } from '@nestjs/throttler';
import type { Request } from 'express';
import { authenticatedKey } from '../auth/authenticated-request';
import { RequestId } from '../common/request-id/request-id.decorator';
import { NoQueryDto } from '../common/validation/no-query.dto';
import { ValidatedQuery } from '../common/validation/validated-query.decorator';
import { UsageService, type KeyUsage } from './usage.service';

// Described in docs/limits.md; not yet part of the OpenAPI document (its response classes are to do).
@ApiExcludeController()
@Controller('v1')
export class UsageController {
  constructor(private readonly usage: UsageService) {}

  /**
   * The key's policy and standing. Counted in the minute like any request (so it cannot be
   * flooded), but not in the month, and answered even when the quota is exhausted.
   */
  @Get('usage')
  @SkipThrottle({ month: true })
  async get(
    @Req() req: Request,
    @ValidatedQuery(NoQueryDto) _query: NoQueryDto,
    @RequestId() requestId: string,
  ): Promise<{ data: [KeyUsage]; meta: { request_id: string } }> {
    return { data: [await this.usage.of(authenticatedKey(req))], meta: { request_id: requestId } };
  }
}
