import type { CommanderOptionsType } from 'nest-commander';

/** How operators run the CLI; commander would otherwise call it by its file name, `cli`. */
export const CLI_INVOCATION = 'node dist/cli.js';

export const CLI_ENVIRONMENT_HELP = `
Environment (shared with the server; it decides which database a command touches):
  DATABASE_URL  PostgreSQL URL (postgres://user:password@host:5432/name). With it, the CLI and
                any number of servers share that database.
  DATA_DIR      where the embedded database (PGlite) lives when DATABASE_URL is unset
                (default ./.data). One process at a time: stop the server before using the CLI.
  LOG_LEVEL     fatal, error, warn, info (default), debug, trace or silent

Errors are one line on stderr with a non-zero exit; --json output is one JSON value on stdout.`;

/**
 * Commander's help through its documented `configureHelp` hooks: usage shows the real invocation,
 * and the top-level help ends with the environment the commands read.
 */
export const CLI_HELP_CONFIGURATION: CommanderOptionsType['helpConfiguration'] = {
  commandUsage(command) {
    const names: string[] = [];
    for (let current = command; current.parent; current = current.parent) names.unshift(current.name());
    return [CLI_INVOCATION, ...names, command.usage()].join(' ');
  },
  formatHelp(command, helper) {
    const base = Object.getPrototypeOf(helper).formatHelp.call(helper, command, helper) as string;
    return command.parent ? base : `${base}${CLI_ENVIRONMENT_HELP}\n`;
  },
};

/**
 * Whether the arguments only ask for help, which must work without a database (and while the
 * server holds the embedded one): none, `help [command]`, `--help`/`-h`, or `<command> --help`.
 */
export function isHelpRequest(args: readonly string[]): boolean {
  const helpFlag = (arg: string | undefined) => arg === '--help' || arg === '-h';
  if (args.length === 0 || args[0] === 'help' || helpFlag(args[0])) return true;
  return args.length === 2 && helpFlag(args[1]);
}
