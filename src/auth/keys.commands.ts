import { Injectable } from '@nestjs/common';
import { Command, CommandRunner, Option } from 'nest-commander';
import { CliError } from '../common/cli/cli-error';
import { parseCliInteger, parseCliText } from '../common/cli/cli-options';
import { type TableColumn, formatTable } from '../common/cli/text-table';
import { type ApiKeySummary, ApiKeyService, type RotationRefusal } from './api-key.service';
import {
  MAX_EXPIRY_AHEAD_MS,
  MAX_ROTATION_OVERLAP_MS,
  checkExpiry,
  describeDuration,
  parseDuration,
  parseInstant,
} from './key-lifetime';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_RPM = 1_000_000;
const MAX_MONTHLY_QUOTA = 1_000_000_000_000;

interface CreateOptions {
  name?: string;
  rpm?: number;
  monthlyQuota?: number;
  expiresAt?: Date;
  expiresIn?: number;
  json?: boolean;
}

/** A lowercased key id, or the one-line refusal every key command gives for a malformed one. */
function keyId(id: string | undefined, extra: string[]): string {
  if (id === undefined || extra.length > 0) throw new CliError('give exactly one key ID');
  if (!UUID.test(id)) throw new CliError(`no API key has the ID ${JSON.stringify(id)}`);
  return id.toLowerCase();
}

/**
 * The instant from an `at` or an `in` option (at most one, named as the command spells them),
 * checked against now: a future instant, or undefined when neither was given.
 */
function expiryFrom(
  given: { at?: Date; in?: number },
  names: { at: string; in: string },
  now: number,
): Date | undefined {
  if (given.at !== undefined && given.in !== undefined) {
    throw new CliError(`give ${names.at} or ${names.in}, not both`);
  }
  if (given.at !== undefined) return checkExpiry(names.at, given.at, now);
  if (given.in !== undefined) {
    if (given.in === 0) throw new CliError(`${names.in} must be longer than 0`);
    return new Date(now + given.in);
  }
  return undefined;
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
    const expiresAt = expiryFrom(
      { at: options.expiresAt, in: options.expiresIn },
      { at: '--expires-at', in: '--expires-in' },
      Date.now(),
    );
    const { key, summary } = await this.apiKeys.create({ name, rpm, monthlyQuota, expiresAt });
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
      `Created key ${summary.id} (${summary.name}): ${summary.rpm} requests/minute, ${summary.monthly_quota} a month${
        summary.expires_at === null ? '' : `, expires ${summary.expires_at}`
      }.`,
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

  @Option({
    flags: '--expires-at <instant>',
    description: 'ISO 8601 instant (with offset) or date from which the key is refused',
  })
  parseExpiresAt(value: string): Date {
    return parseInstant('--expires-at', value);
  }

  @Option({ flags: '--expires-in <duration>', description: 'refuse the key after this long (90d, 12h, 30m)' })
  parseExpiresIn(value: string): number {
    return parseDuration('--expires-in', value, MAX_EXPIRY_AHEAD_MS);
  }

  @Option({ flags: '--json', description: 'print one JSON line' })
  parseJson(): boolean {
    return true;
  }
}

/** This month's count and its whole percent of the quota, rounded down (100% only when used up). */
export function monthUse(key: Pick<ApiKeySummary, 'month_used' | 'monthly_quota'>): string {
  return `${key.month_used} (${Math.floor((key.month_used * 100) / key.monthly_quota)}%)`;
}

const KEY_COLUMNS: TableColumn<ApiKeySummary>[] = [
  { header: 'ID', value: (key) => key.id },
  { header: 'NAME', value: (key) => key.name },
  { header: 'PREFIX', value: (key) => key.prefix },
  { header: 'RPM', value: (key) => key.rpm, alignRight: true },
  { header: 'MONTHLY QUOTA', value: (key) => key.monthly_quota, alignRight: true },
  { header: 'THIS MONTH', value: monthUse, alignRight: true },
  { header: 'LAST USED', value: (key) => key.last_used_on ?? '-' },
  { header: 'STATE', value: (key) => key.state },
  { header: 'EXPIRES', value: (key) => key.expires_at ?? 'never' },
  { header: 'OLD SECRET UNTIL', value: (key) => key.rotating_until ?? '-' },
  { header: 'CREATED', value: (key) => key.created_at },
];

@Command({
  name: 'keys:list',
  description: "List API keys (never the complete key), each with this month's use and its last day used",
})
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

  async run([given, ...extra]: string[]): Promise<void> {
    const id = keyId(given, extra);
    if (!(await this.apiKeys.setDisabled(id, this.disabled))) {
      throw new CliError(`no API key has the ID ${JSON.stringify(given)}`);
    }
    console.log(`Key ${id} is ${this.disabled ? 'disabled' : 'enabled'}.`);
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

interface ExpireOptions {
  at?: Date;
  in?: number;
  never?: boolean;
}

@Command({
  name: 'keys:expire',
  arguments: '<id>',
  description: 'Set (--at, --in) or clear (--never) the instant from which a key is refused',
})
export class ExpireKeyCommand extends CommandRunner {
  constructor(private readonly apiKeys: ApiKeyService) {
    super();
  }

  async run([given, ...extra]: string[], options: ExpireOptions): Promise<void> {
    const id = keyId(given, extra);
    const chosen = [options.at, options.in, options.never].filter((option) => option !== undefined);
    if (chosen.length !== 1)
      throw new CliError('keys:expire needs exactly one of --at INSTANT, --in DURATION, --never');
    const expiresAt = options.never ? null : expiryFrom(options, { at: '--at', in: '--in' }, Date.now())!;
    if (!(await this.apiKeys.setExpiry(id, expiresAt))) {
      throw new CliError(`no API key has the ID ${JSON.stringify(given)}`);
    }
    console.log(`Key ${id} ${expiresAt === null ? 'never expires' : `expires ${expiresAt.toISOString()}`}.`);
  }

  @Option({ flags: '--at <instant>', description: 'ISO 8601 instant (with offset) or date' })
  parseAt(value: string): Date {
    return parseInstant('--at', value);
  }

  @Option({ flags: '--in <duration>', description: 'from now: 90d, 12h, 30m' })
  parseIn(value: string): number {
    return parseDuration('--in', value, MAX_EXPIRY_AHEAD_MS);
  }

  @Option({ flags: '--never', description: 'clear the expiry' })
  parseNever(): boolean {
    return true;
  }
}

const ROTATION_REFUSALS: Record<RotationRefusal, (id: string) => string> = {
  unknown: (id) => `no API key has the ID ${JSON.stringify(id)}`,
  disabled: (id) => `key ${id} is disabled: enable it before rotating it`,
  expired: (id) => `key ${id} has expired: extend it with keys:expire before rotating it`,
};

@Command({
  name: 'keys:rotate',
  arguments: '<id>',
  description: `Give a key a new secret (printed once); the old one works for --overlap (at most ${describeDuration(MAX_ROTATION_OVERLAP_MS)})`,
})
export class RotateKeyCommand extends CommandRunner {
  constructor(private readonly apiKeys: ApiKeyService) {
    super();
  }

  async run([given, ...extra]: string[], options: { overlap?: number; json?: boolean }): Promise<void> {
    const id = keyId(given, extra);
    if (options.overlap === undefined)
      throw new CliError('keys:rotate needs --overlap DURATION (0 retires the old secret at once)');
    const result = await this.apiKeys.rotate(id, options.overlap);
    if (!result.rotated) throw new CliError(ROTATION_REFUSALS[result.reason](given!));
    const endsAt = result.previousKeyEndsAt.toISOString();
    if (options.json) {
      console.log(JSON.stringify({ id, key: result.key, previous_key_ends_at: endsAt }));
      return;
    }
    console.log(
      `Rotated key ${id}: the previous secret works until ${endsAt}${
        result.retiredOldest ? ' (the secret before it, still in its overlap, is retired now)' : ''
      }.`,
    );
    console.log('The new complete key is shown only now; keep it in server-side secret storage:');
    console.log(result.key);
  }

  @Option({
    flags: '--overlap <duration>',
    description: 'how long the old secret keeps working: 0, 30m, 12h, 7d',
  })
  parseOverlap(value: string): number {
    return parseDuration('--overlap', value, MAX_ROTATION_OVERLAP_MS);
  }

  @Option({ flags: '--json', description: 'print one JSON line' })
  parseJson(): boolean {
    return true;
  }
}

export const KEY_COMMANDS = [
  CreateKeyCommand,
  ListKeysCommand,
  DisableKeyCommand,
  EnableKeyCommand,
  ExpireKeyCommand,
  RotateKeyCommand,
];
