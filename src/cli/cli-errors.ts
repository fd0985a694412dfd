import { type AppConfig, loadConfig } from '../config/app-config';
import { CliError } from '../common/cli/cli-error';
import { describeStartupFailure, errorFirstLine } from '../startup/startup-failure';

/**
 * Every CLI failure ends here: one line on stderr, non-zero exit. Commander's own errors have
 * printed their line already; help and version exit 0.
 */
export function reportCliFailure(error: unknown): never {
  const commander = error as { code?: string; exitCode?: number };
  if (typeof commander?.code === 'string' && commander.code.startsWith('commander.')) {
    process.exit(commander.exitCode ?? 1);
  }
  const line = error instanceof CliError ? null : describeStartupFailure(error, configOrNothing());
  console.error(`error: ${line ?? errorFirstLine(error)}`);
  process.exit(1);
}

function configOrNothing(): AppConfig | undefined {
  try {
    return loadConfig();
  } catch {
    return undefined;
  }
}
