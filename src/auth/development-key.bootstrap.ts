import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { ApiKeyService } from './api-key.service';

export const DEVELOPMENT_KEY_POLICY = { name: 'development', rpm: 600, monthlyQuota: 1_000_000 };

/**
 * First run of the embedded database: with no keys at all, create one and print it once, so a new
 * user can call the API right away. Never with DATABASE_URL: production keys come from operators.
 */
@Injectable()
export class DevelopmentKeyBootstrap implements OnApplicationBootstrap {
  private readonly logger = new Logger('DevelopmentKey');

  constructor(
    private readonly apiKeys: ApiKeyService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.database.kind !== 'embedded' || !this.config.firstRunSetup) return;
    if ((await this.apiKeys.count()) > 0) return;
    const { key, summary } = await this.apiKeys.create(DEVELOPMENT_KEY_POLICY);
    this.logger.log({ keyId: summary.id }, 'Created a development API key for the embedded database');
    // Printed to stdout, not the log stream: it is shown once and must not land in log storage.
    process.stdout.write(
      `\nDevelopment API key (shown once; ${summary.rpm} requests/minute, ${summary.monthly_quota} a month):\n` +
        `  ${key}\nTry: curl -H "Authorization: Bearer ${key}" 'http://localhost:${this.config.port}/v1/search?q=the'\n\n`,
    );
  }
}
