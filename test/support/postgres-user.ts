import { execFileSync } from 'node:child_process';
import { chownSync } from 'node:fs';

/**
 * PostgreSQL's programs (and PgBouncer) refuse to run as root: as root the tests run them as the
 * `postgres` user (`runuser`), on files handed to it; as anyone else, as themselves.
 */
export const RUN_AS_POSTGRES = process.getuid?.() === 0;

/** Gives `paths` to the `postgres` user when the tests run as root. */
export function chownToPostgres(...paths: string[]): void {
  if (!RUN_AS_POSTGRES) return;
  const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
  for (const path of paths) chownSync(path, uid, gid);
}

/** Runs `command` to its end (as `postgres` when the tests run as root) and returns its output. */
export function runAsPostgres(command: string[]): string {
  const [program, ...args] = RUN_AS_POSTGRES ? ['runuser', '-u', 'postgres', '--', ...command] : command;
  return execFileSync(program, args, { stdio: ['ignore', 'pipe', 'pipe'] }).toString();
}
