import type { ChildProcess } from 'node:child_process';

/** Asks a forked `admission-server.js` to close its app and waits for the process to exit. */
export async function stopAdmissionServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise<void>((done) => {
    child.removeAllListeners('exit');
    child.once('exit', () => done());
    child.send({ type: 'stop' });
  });
}
