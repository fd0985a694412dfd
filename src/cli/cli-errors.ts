import { ConfigError } from '../config/app-config';

/** Raised by commands for bad arguments or refused operations; printed as one line. */
export class CliError extends Error {}

const COMMANDER_SUCCESS = new Set(['commander.helpDisplayed', 'commander.version', 'commander.help']);

/** Every CLI failure ends here: one line on stderr, non-zero exit (help and version exit 0). */
export function reportCliFailure(error: unknown): never {
  const commanderCode = (error as { code?: string })?.code;
  if (commanderCode && COMMANDER_SUCCESS.has(commanderCode)) process.exit(0);
  const message =
    error instanceof CliError || error instanceof ConfigError
      ? error.message
      : commanderCode?.startsWith('commander.')
        ? (error as Error).message.replace(/^error: /, '')
        : `${(error as Error)?.message ?? String(error)}`;
  console.error(`error: ${message.split('\n')[0]}`);
  process.exit(1);
}
