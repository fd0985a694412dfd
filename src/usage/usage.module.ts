import { Module } from '@nestjs/common';
import { QuotaModule } from '../limits/quota.module';
import { AuthModule } from '../auth/auth.module';
import { UsageController } from './usage.controller';
import { UsageService } from './usage.service';

/** `GET /v1/usage`: the calling key's limits and standing, read from the limits' counters. */
@Module({
  imports: [QuotaModule, AuthModule],
  controllers: [UsageController],
  providers: [UsageService],
})
export class UsageModule {}
