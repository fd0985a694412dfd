import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The package's version, from package.json (`dist/src/cli/` and `src/cli/` both find it: the
 * nearest one up the tree), for `--version` and `-V`.
 */
export function packageVersion(from: string = __dirname): string {
  for (let dir = from; ; dir = join(dir, '..')) {
    try {
      return (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version;
    } catch {
      if (join(dir, '..') === dir) return 'unknown';
    }
  }
}

/** Whether the arguments only ask for the version, which needs no database. */
export function isVersionRequest(args: readonly string[]): boolean {
  return args.length === 1 && (args[0] === '--version' || args[0] === '-V');
}
