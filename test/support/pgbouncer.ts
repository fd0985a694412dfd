import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port';
import { chownToPostgres, runAsPostgres } from './postgres-user';
import { sleep } from './timing';

/**
 * Debian's PgBouncer (`apt-get install pgbouncer`, 1.18: no prepared-statement support) in
 * transaction pooling mode, on a free port in front of a PostgreSQL server, with its own config
 * in a temporary directory. Nothing the service would need is configured: no ignored start-up
 * parameters, no reset query. PgBouncer refuses to run as root: as root it runs as `postgres`.
 */
export class PgBouncer {
  private constructor(
    readonly port: number,
    private readonly dir: string,
  ) {}

  /** A PgBouncer in front of the server of a postgres:// URL. */
  static inFrontOf(url: string): Promise<PgBouncer> {
    const target = new URL(url);
    return PgBouncer.start({ host: target.hostname, port: Number(target.port || 5432) });
  }

  static async start(target: { host: string; port: number }, poolSize = 20): Promise<PgBouncer> {
    const dir = mkdtempSync(join(tmpdir(), 'pgbouncer-'));
    const port = await freePort();
    writeFileSync(join(dir, 'users.txt'), '"postgres" ""\n');
    writeFileSync(
      join(dir, 'pgbouncer.ini'),
      [
        '[databases]',
        `* = host=${target.host} port=${target.port}`,
        '[pgbouncer]',
        'listen_addr = 127.0.0.1',
        `listen_port = ${port}`,
        'unix_socket_dir =',
        'auth_type = trust',
        `auth_file = ${join(dir, 'users.txt')}`,
        'pool_mode = transaction',
        `default_pool_size = ${poolSize}`,
        'max_client_conn = 2000',
        `logfile = ${join(dir, 'pgbouncer.log')}`,
        `pidfile = ${join(dir, 'pgbouncer.pid')}`,
        '',
      ].join('\n'),
    );
    chownToPostgres(...['', 'users.txt', 'pgbouncer.ini'].map((file) => join(dir, file)));
    runAsPostgres(['pgbouncer', '-d', join(dir, 'pgbouncer.ini')]);
    const bouncer = new PgBouncer(port, dir);
    for (let attempt = 0; attempt < 100 && bouncer.pid() === null; attempt++) await sleep(50);
    if (bouncer.pid() === null) throw new Error(`pgbouncer did not start:\n${bouncer.log()}`);
    return bouncer;
  }

  /** The same database URL, through PgBouncer. */
  url(databaseUrl: string): string {
    const url = new URL(databaseUrl);
    url.hostname = '127.0.0.1';
    url.port = String(this.port);
    return url.toString();
  }

  log(): string {
    try {
      return readFileSync(join(this.dir, 'pgbouncer.log'), 'utf8');
    } catch {
      return '';
    }
  }

  private pid(): number | null {
    try {
      return Number(readFileSync(join(this.dir, 'pgbouncer.pid'), 'utf8').trim()) || null;
    } catch {
      return null;
    }
  }

  /** Stops this PgBouncer (its own pid) and removes its directory. */
  async stop(): Promise<void> {
    const pid = this.pid();
    if (pid !== null) {
      process.kill(pid, 'SIGINT');
      for (let attempt = 0; attempt < 100; attempt++) {
        try {
          process.kill(pid, 0);
          await sleep(50);
        } catch {
          break;
        }
      }
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}
