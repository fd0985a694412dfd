import { Module } from '@nestjs/common';
import { LimitsModule } from '../limits/limits.module';
import { RequestAuthModule } from '../auth/request-auth.module';
import { UsageController } from './usage.controller';
import { UsageService } from './usage.service';

/** `GET /v1/usage`: the calling key's limits and standing, read from the limits' counters. */
@Module({
  imports: [LimitsModule, RequestAuthModule],
  controllers: [UsageController],
  providers: [UsageService],
})
export class UsageModule {}
