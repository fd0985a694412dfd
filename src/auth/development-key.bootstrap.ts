import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { ApiKeyService } from './api-key.service';

export const DEVELOPMENT_KEY_POLICY = { name: 'development', rpm: 600, monthlyQuota: 1_000_000 };

/**
 * Embedded database's first run with no keys: create one and print it once (never with DATABASE_URL).
 * Runs once the server listens, so a failed start neither prints nor creates a key nobody saw.
 */
@Injectable()
export class DevelopmentKeyBootstrap {
  private readonly logger = new Logger('DevelopmentKey');

  constructor(
    private readonly apiKeys: ApiKeyService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Creates and prints the key when this is the embedded database's first run; `url` is where the server listens. */
  async createOnFirstRun(url: string): Promise<void> {
    if (this.config.database.kind !== 'embedded' || !this.config.firstRunSetup) return;
    if ((await this.apiKeys.count()) > 0) return;
    const { key, summary } = await this.apiKeys.create(DEVELOPMENT_KEY_POLICY);
    this.logger.log({ keyId: summary.id }, 'Created a development API key for the embedded database');
    // On stderr, not the log stream (stdout, JSON lines only): a person reads it once, a log
    // pipe (`npm start | jq`) never sees it, and it does not land in log storage.
    process.stderr.write(
      `\nDevelopment API key (shown once; ${summary.rpm} requests/minute, ${summary.monthly_quota} a month):\n` +
        `  ${key}\nTry: curl -H "Authorization: Bearer ${key}" '${url}/v1/search?q=the'\n\n`,
    );
  }
}
