import { type ChildProcess, fork } from 'node:child_process';
import { join } from 'node:path';

export interface AdmissionServerOptions {
  /** The checkout whose `bench/out/bench/admission-server.js` runs (`npx tsc -p bench/tsconfig.admission.json`). */
  checkout: string;
  mode: string;
  port: string;
  node: string;
  execArgv: string[];
  databaseUrl: string;
  cwd?: string;
}

/**
 * Forks a checkout's compiled admission server; `ready` gives the bearer key it accepts once it
 * listens, or fails if it exits first. Stop it with `stopAdmissionServer` whatever `ready` gave.
 */
export function startAdmissionServer(options: AdmissionServerOptions): {
  child: ChildProcess;
  ready: Promise<string>;
} {
  const child = fork(
    join(options.checkout, 'bench/out/bench/admission-server.js'),
    [options.mode, options.port],
    {
      cwd: options.cwd,
      execPath: options.node,
      execArgv: options.execArgv,
      env: { ...process.env, DATABASE_URL: options.databaseUrl, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    },
  );
  const ready = new Promise<string>((done, fail) => {
    child.once('exit', (code) => fail(new Error(`server exited with ${code}`)));
    child.on('message', (m: { type: string; key: string }) => m.type === 'ready' && done(m.key));
  });
  return { child, ready };
}

/** Asks a forked `admission-server.js` to close its app and waits for the process to exit. */
export async function stopAdmissionServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise<void>((done) => {
    child.removeAllListeners('exit');
    child.once('exit', () => done());
    child.send({ type: 'stop' });
  });
}
