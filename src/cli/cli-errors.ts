/** Raised by commands for bad arguments or refused operations; printed as one line. */
export class CliError extends Error {}

/**
 * Every CLI failure ends here: one line on stderr, non-zero exit. Commander's own errors (unknown
 * option, missing argument) have already printed their one line; help and version exit 0.
 */
export function reportCliFailure(error: unknown): never {
  const commander = error as { code?: string; exitCode?: number };
  if (typeof commander?.code === 'string' && commander.code.startsWith('commander.')) {
    process.exit(commander.exitCode ?? 1);
  }
  const message = error instanceof Error ? error.message : String(error);
  console.error(`error: ${message.split('\n')[0]}`);
  process.exit(1);
}
