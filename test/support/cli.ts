import { execFile } from 'node:child_process';
import { join } from 'node:path';
import type { DatabaseConfig } from '../../src/config/app-config';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

const CLI = join(__dirname, '..', '..', 'dist', 'cli.js');

/** The environment that points the CLI at a database, as an operator would set it. */
export function cliEnvironment(database: DatabaseConfig): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'silent' };
  delete env.DATABASE_URL;
  delete env.DATA_DIR;
  if (database.kind === 'postgres') env.DATABASE_URL = database.url;
  else env.DATA_DIR = database.dataDir;
  return env;
}

/** Runs `node dist/cli.js …` (the build output; `npm test` builds first). */
export function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { env, timeout: 60_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** A `catalog:ingest` running in its own process while the test keeps asking the server. */
export interface BackgroundIngest {
  /** True until the CLI has exited. */
  readonly running: boolean;
  readonly finished: Promise<CliResult>;
}

/**
 * Starts `catalog:ingest` of `files` under `catalogVersion`, as operators run it: in this process its
 * parsing would hold the server's event loop and time out probes, which production never sees.
 */
export function ingestInBackground(
  database: DatabaseConfig,
  files: { basics: string; ratings: string },
  catalogVersion: string,
): BackgroundIngest {
  const ingest = { running: true, finished: Promise.resolve({ code: 0, stdout: '', stderr: '' }) };
  ingest.finished = runCli(
    [
      'catalog:ingest',
      '--basics',
      files.basics,
      '--ratings',
      files.ratings,
      '--catalog-version',
      catalogVersion,
      '--json',
    ],
    cliEnvironment(database),
  ).finally(() => (ingest.running = false));
  return ingest;
}
