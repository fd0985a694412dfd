import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request as httpRequest, Agent } from 'node:http';
import { join } from 'node:path';
import { freePort } from './free-port';
import { sleep } from './timing';

const MAIN = join(__dirname, '..', '..', 'dist', 'main.js');

/**
 * The node options of the image's server: its exec-form `CMD ["node", …options, "dist/main.js"]`
 * (the unindented CMD; the HEALTHCHECK's is indented), so a test never runs a stale copy of them.
 */
export function dockerfileNodeArgs(dockerfile: string): string[] {
  const cmd = /^CMD (\[.*\])\s*$/m.exec(dockerfile);
  if (cmd === null) throw new Error('the Dockerfile has no exec-form CMD line');
  const argv = JSON.parse(cmd[1]) as string[];
  if (argv[0] !== 'node' || argv[argv.length - 1] !== 'dist/main.js') {
    throw new Error(`the Dockerfile's CMD is not node … dist/main.js: ${cmd[1]}`);
  }
  return argv.slice(1, -1);
}

/** The V8 limits the container image runs the server with, read from the Dockerfile's CMD. */
export const CONTAINER_NODE_ARGS = dockerfileNodeArgs(
  readFileSync(join(__dirname, '..', '..', 'Dockerfile'), 'utf8'),
);
/** The grace period of servers a test starts, unless it sets its own (the default is 5 s). */
export const TEST_SHUTDOWN_GRACE_MS = 200;

export interface HttpAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** `node dist/main.js` in a child process (the build output; `npm test` builds first). */
export class ServerProcess {
  private output = '';
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  readonly baseUrl: string;

  private constructor(
    readonly child: ChildProcess,
    readonly port: number,
  ) {
    this.baseUrl = `http://127.0.0.1:${port}`;
    child.stdout?.on('data', (chunk: Buffer) => (this.output += chunk.toString('utf8')));
    child.stderr?.on('data', (chunk: Buffer) => (this.output += chunk.toString('utf8')));
    this.exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  }

  /**
   * Starts the server with `env` on top of a clean environment (and `nodeArgs` for node itself, e.g.
   * the container's heap cap) and waits until it answers HTTP.
   */
  /**
   * The server as the container image runs it: the Dockerfile's V8 flags and access lines on (LOG_LEVEL
   * info), on a free port, with `env` on top (a DATABASE_URL, a METRICS_PORT).
   */
  static async startAsImage(env: NodeJS.ProcessEnv): Promise<ServerProcess> {
    return ServerProcess.start(await freePort(), { LOG_LEVEL: 'info', ...env }, CONTAINER_NODE_ARGS);
  }

  static async start(port: number, env: NodeJS.ProcessEnv, nodeArgs: string[] = []): Promise<ServerProcess> {
    // SIGTERM always drains for SHUTDOWN_GRACE_MS: a short one keeps every stop of a test quick.
    const base: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      LOG_LEVEL: 'warn',
      APP_ENV: 'test',
      SHUTDOWN_GRACE_MS: String(TEST_SHUTDOWN_GRACE_MS),
    };
    const child = spawn(process.execPath, [...nodeArgs, MAIN], {
      env: { ...base, HOST: '127.0.0.1', PORT: String(port), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const server = new ServerProcess(child, port);
    let alive = true;
    void server.exited.then(() => (alive = false));
    for (let attempt = 0; attempt < 600; attempt++) {
      if (!alive) throw new Error(`the server exited at start:\n${server.logs()}`);
      try {
        await server.get('/health');
        return server;
      } catch {
        await sleep(100);
      }
    }
    child.kill('SIGKILL');
    throw new Error(`the server did not answer within 60 s:\n${server.logs()}`);
  }

  get alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  logs(): string {
    return this.output;
  }

  /**
   * Stops reading the server's stdout, as a stalled log agent does: once this side's stream buffer
   * and the pipe's are full, every write of the server blocks or waits.
   */
  pauseStdout(): void {
    this.child.stdout?.pause();
  }

  /** Reads the server's stdout again (into `logs()`). */
  resumeStdout(): void {
    this.child.stdout?.resume();
  }

  /** A GET on its own connection unless an agent is given; rejects on a socket error. */
  get(path: string, headers: Record<string, string> = {}, agent?: Agent): Promise<HttpAnswer> {
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        { host: '127.0.0.1', port: this.port, path, headers, agent: agent ?? false },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              body: Buffer.concat(chunks).toString('utf8'),
            }),
          );
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end();
    });
  }

  /**
   * A full garbage collection in the server, so the heap then holds only what the server keeps:
   * SIGUSR1 opens Node's inspector on the port the server was given with `--inspect-port` (in
   * NODE_OPTIONS: no flag of the image changes), and a plain Node process asks it for
   * `HeapProfiler.collectGarbage`.
   */
  async collectGarbage(inspectPort: number): Promise<void> {
    this.child.kill('SIGUSR1');
    const script = `
      const deadline = Date.now() + 20000;
      (async () => {
        let url;
        while (!url) {
          try {
            url = (await (await fetch('http://127.0.0.1:${inspectPort}/json/list')).json())[0].webSocketDebuggerUrl;
          } catch (error) {
            if (Date.now() > deadline) throw error;
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
        }
        const socket = new WebSocket(url);
        socket.onopen = () => socket.send(JSON.stringify({ id: 1, method: 'HeapProfiler.collectGarbage' }));
        socket.onmessage = (event) => {
          if (JSON.parse(event.data).id === 1) { socket.close(); process.exit(0); }
        };
        socket.onerror = () => process.exit(2);
      })().catch((error) => { console.error(error.message); process.exit(1); });`;
    const asker = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'ignore', 'pipe'] });
    let errors = '';
    asker.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => asker.once('exit', resolve));
    if (code !== 0) throw new Error(`no garbage collection through the inspector (exit ${code}): ${errors}`);
  }

  /** Sends `signal` and resolves with the exit; kills it outright after `withinMs`. */
  async stop(signal: NodeJS.Signals = 'SIGTERM', withinMs = 30_000) {
    if (this.alive) this.child.kill(signal);
    const timer = setTimeout(() => this.child.kill('SIGKILL'), withinMs);
    try {
      return await this.exited;
    } finally {
      clearTimeout(timer);
    }
  }
}
