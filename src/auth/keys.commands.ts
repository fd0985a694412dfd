import { Injectable } from '@nestjs/common';
import { Command, CommandRunner, Option } from 'nest-commander';
import { CliError } from '../common/cli/cli-error';
import { parseCliInteger, parseCliText } from '../common/cli/cli-options';
import { type TableColumn, formatTable } from '../common/cli/text-table';
import { type ApiKeySummary, ApiKeyService } from './api-key.service';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_RPM = 1_000_000;
const MAX_MONTHLY_QUOTA = 1_000_000_000_000;

interface CreateOptions {
  name?: string;
  rpm?: number;
  monthlyQuota?: number;
  json?: boolean;
}

@Command({ name: 'keys:create', description: 'Create an API key and print it once' })
export class CreateKeyCommand extends CommandRunner {
  constructor(private readonly apiKeys: ApiKeyService) {
    super();
  }

  async run(_args: string[], options: CreateOptions): Promise<void> {
    const { name, rpm, monthlyQuota } = options;
    if (name === undefined || rpm === undefined || monthlyQuota === undefined) {
      throw new CliError('keys:create needs --name NAME --rpm N --monthly-quota N');
    }
    const { key, summary } = await this.apiKeys.create({ name, rpm, monthlyQuota });
    if (options.json) {
      console.log(
        JSON.stringify({
          id: summary.id,
          key,
          name: summary.name,
          rpm: summary.rpm,
          monthly_quota: summary.monthly_quota,
        }),
      );
      return;
    }
    console.log(
      `Created key ${summary.id} (${summary.name}): ${summary.rpm} requests/minute, ${summary.monthly_quota} a month.`,
    );
    console.log('The complete key is shown only now; keep it in server-side secret storage:');
    console.log(key);
  }

  @Option({ flags: '--name <name>', description: 'who or what the key is for (1–100 characters)' })
  parseName(value: string): string {
    return parseCliText('--name', value, 100);
  }

  @Option({ flags: '--rpm <n>', description: 'requests per minute' })
  parseRpm(value: string): number {
    return parseCliInteger('--rpm', value, 1, MAX_RPM);
  }

  @Option({ flags: '--monthly-quota <n>', description: 'requests per UTC calendar month' })
  parseMonthlyQuota(value: string): number {
    return parseCliInteger('--monthly-quota', value, 1, MAX_MONTHLY_QUOTA);
  }

  @Option({ flags: '--json', description: 'print one JSON line' })
  parseJson(): boolean {
    return true;
  }
}

const KEY_COLUMNS: TableColumn<ApiKeySummary>[] = [
  { header: 'ID', value: (key) => key.id },
  { header: 'NAME', value: (key) => key.name },
  { header: 'PREFIX', value: (key) => key.prefix },
  { header: 'RPM', value: (key) => key.rpm, alignRight: true },
  { header: 'MONTHLY QUOTA', value: (key) => key.monthly_quota, alignRight: true },
  { header: 'DISABLED', value: (key) => (key.disabled ? 'yes' : 'no') },
  { header: 'CREATED', value: (key) => key.created_at },
];

@Command({ name: 'keys:list', description: 'List API keys (never the complete key)' })
export class ListKeysCommand extends CommandRunner {
  constructor(private readonly apiKeys: ApiKeyService) {
    super();
  }

  async run(_args: string[], options: { json?: boolean }): Promise<void> {
    const keys = await this.apiKeys.list();
    if (options.json) {
      console.log(JSON.stringify(keys));
      return;
    }
    if (keys.length === 0) {
      console.log('No API keys.');
      return;
    }
    console.log(formatTable(KEY_COLUMNS, keys));
  }

  @Option({ flags: '--json', description: 'print a JSON array' })
  parseJson(): boolean {
    return true;
  }
}

/** Decorated so its constructor's parameter types reach the subclasses' DI. */
@Injectable()
abstract class SetDisabledCommand extends CommandRunner {
  protected abstract readonly disabled: boolean;

  constructor(private readonly apiKeys: ApiKeyService) {
    super();
  }

  async run([id, ...extra]: string[]): Promise<void> {
    if (id === undefined || extra.length > 0) throw new CliError('give exactly one key ID');
    if (!UUID.test(id) || !(await this.apiKeys.setDisabled(id.toLowerCase(), this.disabled))) {
      throw new CliError(`no API key has the ID ${JSON.stringify(id)}`);
    }
    console.log(`Key ${id.toLowerCase()} is ${this.disabled ? 'disabled' : 'enabled'}.`);
  }
}

@Command({
  name: 'keys:disable',
  arguments: '<id>',
  description:
    'Disable an API key (refused by every running server: at once with a live change feed, else within 10 s; docs/operations.md#change-feed)',
})
export class DisableKeyCommand extends SetDisabledCommand {
  protected readonly disabled = true;
}

@Command({ name: 'keys:enable', arguments: '<id>', description: 'Enable a disabled API key' })
export class EnableKeyCommand extends SetDisabledCommand {
  protected readonly disabled = false;
}

export const KEY_COMMANDS = [CreateKeyCommand, ListKeysCommand, DisableKeyCommand, EnableKeyCommand];
