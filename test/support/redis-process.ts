import { type ChildProcess, spawn } from 'node:child_process';
import Redis from 'ioredis';
import { eventually } from './timing';

/**
 * A `redis-server` of the test's own on `port`, with no persistence: killed and started again, it
 * comes back empty (a restarted cache). `REDIS_SERVER` names the binary when it is not on the PATH.
 */
export class RedisProcess {
  private child: ChildProcess | null = null;

  constructor(readonly port: number) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const child = spawn(
      process.env.REDIS_SERVER ?? 'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    this.child = child;
    const client = new Redis(this.url, { lazyConnect: true, maxRetriesPerRequest: 0 });
    client.on('error', () => undefined);
    try {
      await eventually(
        () =>
          client.ping().then(
            () => true,
            () => false,
          ),
        10_000,
        50,
      );
    } finally {
      client.disconnect();
    }
  }

  /** SIGKILL: open connections are reset, new ones refused, nothing is saved. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    this.child = null;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }
}
