import { UseGuards, applyDecorators } from '@nestjs/common';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { QuotaGuard } from './quota.guard';
import { RateLimitGuard } from './rate-limit.guard';

/**
 * The contract's order of checks for a /v1 route: API key, per-minute limit, monthly quota. Query
 * validation runs after these (in the pipes stage), then the handler.
 */
export const RequireApiKey = () => applyDecorators(UseGuards(ApiKeyGuard, RateLimitGuard, QuotaGuard));
