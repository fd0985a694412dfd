import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { TEST_SHUTDOWN_GRACE_MS } from './server-process';

const MAIN = join(__dirname, '..', '..', 'dist', 'main.js');

export interface ExitedProcess {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The environment of a spawned server or CLI: this process's, without any database or Redis set. */
export function cleanEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ['DATABASE_URL', 'DATA_DIR', 'REDIS_URL', 'PORT', 'HOST', 'LOG_LEVEL', 'NODE_OPTIONS']) {
    delete base[name];
  }
  delete base.CATALOG_API_REQUIRE_DATABASE_URL;
  return { ...base, ...env };
}

/** Runs `node dist/main.js` expecting it to end by itself (a failed start). */
export function runServerToExit(env: NodeJS.ProcessEnv): Promise<ExitedProcess> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [MAIN], { env: cleanEnvironment(env) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** A server started with `node dist/main.js`, up once its start-up line says where it listens. */
export interface RunningServer {
  url: string;
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** The `msg` of every JSON log line so far. */
  logMessages(): string[];
  stop(): Promise<number | null>;
}

export function startServer(env: NodeJS.ProcessEnv): Promise<RunningServer> {
  const child = spawn(process.execPath, [MAIN], {
    // SIGTERM always drains for SHUTDOWN_GRACE_MS: a short one keeps every stop of a test quick.
    env: cleanEnvironment({
      HOST: '127.0.0.1',
      PORT: '0',
      SHUTDOWN_GRACE_MS: String(TEST_SHUTDOWN_GRACE_MS),
      ...env,
    }),
  });
  let stdout = '';
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const logMessages = () =>
    stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => String(JSON.parse(line).msg));
  const server = (url: string): RunningServer => ({
    url,
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    logMessages,
    stop: () => {
      child.kill('SIGTERM');
      return exited;
    },
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the server did not start: ${stderr}`));
    }, 60_000);
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      const listening = /Listening on (https?:\/\/[^;]+);/.exec(stdout);
      if (listening) {
        clearTimeout(timer);
        resolve(server(listening[1]));
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited with ${code}: ${stderr}`));
    });
  });
}
