import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { freePort } from './free-port';
import { chownToPostgres, runAsPostgres } from './postgres-user';

const BIN = execFileSync('pg_config', ['--bindir']).toString().trim();

/**
 * A PostgreSQL server of the test's own, from Debian's binaries (`pg_config --bindir`), with its data
 * directory under a temporary directory and on a free port; `streamingReplica()` adds a hot standby
 * of it (`pg_basebackup -R`). Trust authentication on 127.0.0.1, fsync off: it is thrown away.
 */
export class PostgresServer {
  private constructor(
    readonly port: number,
    private readonly dataDir: string,
    private readonly root: string,
  ) {}

  /** initdb and start a primary, in a temporary directory of its own (removed by `remove()`). */
  static async primary(): Promise<PostgresServer> {
    const root = mkdtempSync(join(tmpdir(), 'pg-fleet-'));
    chownToPostgres(root);
    const dataDir = join(root, 'primary');
    runAsPostgres([join(BIN, 'initdb'), '-D', dataDir, '-A', 'trust', '-U', 'postgres', '--no-sync']);
    appendFileSync(join(dataDir, 'pg_hba.conf'), 'host replication all 127.0.0.1/32 trust\n');
    const server = new PostgresServer(await freePort(), dataDir, root);
    server.start();
    return server;
  }

  /** A hot standby streaming from this server, started on a free port. */
  async streamingReplica(): Promise<PostgresServer> {
    const dataDir = join(this.root, `replica-${Date.now()}`);
    runAsPostgres([
      join(BIN, 'pg_basebackup'),
      ...[
        '-h',
        '127.0.0.1',
        '-p',
        String(this.port),
        '-U',
        'postgres',
        '-D',
        dataDir,
        '-R',
        '-X',
        'stream',
        '-c',
        'fast',
      ],
    ]);
    const replica = new PostgresServer(await freePort(), dataDir, this.root);
    replica.start();
    return replica;
  }

  /** A URL of one of its databases. */
  url(database: string): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  start(): void {
    const sockets = join(this.root, `sockets-${this.port}`);
    mkdirSync(sockets, { recursive: true });
    chownToPostgres(sockets);
    const options = [
      `-p ${this.port}`,
      `-k ${sockets}`,
      '-c listen_addresses=127.0.0.1',
      '-c fsync=off',
      '-c full_page_writes=off',
      '-c max_connections=100',
    ].join(' ');
    runAsPostgres([
      join(BIN, 'pg_ctl'),
      ...['-D', this.dataDir, '-l', join(this.root, `${this.port}.log`), '-o', options, '-w', 'start'],
    ]);
  }

  /** Stops it at once (`-m fast`: sessions are ended, as in a failover or a node going away). */
  stop(): void {
    runAsPostgres([join(BIN, 'pg_ctl'), '-D', this.dataDir, '-m', 'fast', '-w', 'stop']);
  }

  /** One statement as the superuser, on its own connection. */
  async query<Row>(database: string, sql: string, params: unknown[] = []): Promise<Row[]> {
    const client = new Client({ connectionString: this.url(database) });
    await client.connect();
    try {
      return (await client.query(sql, params)).rows as Row[];
    } finally {
      await client.end();
    }
  }

  log(): string {
    try {
      return readFileSync(join(this.root, `${this.port}.log`), 'utf8');
    } catch {
      return '';
    }
  }

  /** Stops the server if it runs (`-m immediate`) and removes the whole temporary directory. */
  remove(servers: PostgresServer[] = []): void {
    for (const server of [...servers, this]) {
      try {
        runAsPostgres([join(BIN, 'pg_ctl'), '-D', server.dataDir, '-m', 'immediate', '-w', 'stop']);
      } catch {
        // Not running.
      }
    }
    rmSync(this.root, { recursive: true, force: true });
  }
}
