import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliEnvironment, runCli } from './support/cli';
import { type RunningServer, startServer } from './support/startup-process';
import { TEST_ENGINE, type TestDatabase, createTestDatabase } from './support/test-database';
import { eventually } from './support/timing';

/** A grace period no test waits for: an exit well within it did not wait. */
const LONG_GRACE_MS = 60_000;
/** Generous on a busy two-core machine; the grace period it replaces is 60 s. */
const AT_ONCE_MS = 5_000;

/** A GET on a kept-alive connection that stays open (idle) afterwards. */
function getKeptAlive(url: string, agent: Agent): Promise<number> {
  return new Promise((resolve, reject) => {
    get(`${url}/health`, { agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    }).on('error', reject);
  });
}

/** Sends `signal` and resolves with the exit code and how long the exit took. */
async function timedStop(server: RunningServer, signal: NodeJS.Signals) {
  const exited = new Promise<number | null>((resolve) => server.child.once('close', resolve));
  const started = Date.now();
  server.child.kill(signal);
  const code = await exited;
  return { code, ms: Date.now() - started };
}

/** Ctrl-C stops at once; SIGTERM always drains for the grace period, which is for load balancers. */
describe('stopping the built server', () => {
  let database: TestDatabase;
  const env = (): NodeJS.ProcessEnv => ({
    ...(database.config.kind === 'postgres'
      ? { DATABASE_URL: database.config.url }
      : { DATA_DIR: database.config.dataDir }),
    SHUTDOWN_GRACE_MS: String(LONG_GRACE_MS),
    LOG_LEVEL: 'info',
  });

  beforeAll(async () => {
    if (TEST_ENGINE === 'embedded') {
      const dataDir = mkdtempSync(join(tmpdir(), 'catalog-stopping-'));
      database = {
        config: { kind: 'embedded', dataDir },
        drop: async () => rmSync(dataDir, { recursive: true, force: true }),
      };
    } else {
      database = await createTestDatabase();
    }
  }, 120_000);
  afterAll(() => database.drop());

  it('stops at once on Ctrl-C (SIGINT) with a client connected, and the CLI can use the database right after', async () => {
    const server = await startServer(env());
    const agent = new Agent({ keepAlive: true });
    try {
      expect(await getKeptAlive(server.url, agent)).toBe(200);
      const { code, ms } = await timedStop(server, 'SIGINT');
      expect(code).toBe(0);
      expect(ms).toBeLessThan(AT_ONCE_MS);
      expect(server.logMessages()).toContain(
        'SIGINT: stopping now (interactive stop); in-flight requests finish first',
      );
      // The embedded database is free: README's next step after Ctrl-C works at once.
      const cli = await runCli(['keys:list', '--json'], cliEnvironment(database.config));
      expect(cli.stderr).toBe('');
      expect(cli.code).toBe(0);
    } finally {
      agent.destroy();
      server.child.kill('SIGKILL');
    }
  });

  it('drains on SIGTERM for the whole grace period even with no connection open', async () => {
    // Load balancers learn of a stopping replica late and keep sending new connections meanwhile.
    const graceMs = 2_000;
    const server = await startServer({ ...env(), SHUTDOWN_GRACE_MS: String(graceMs) });
    try {
      const exited = new Promise<number | null>((resolve) => server.child.once('close', resolve));
      const signalled = Date.now();
      server.child.kill('SIGTERM');
      await eventually(
        async () => server.logMessages().some((message) => message.startsWith('SIGTERM: draining')),
        AT_ONCE_MS,
        20,
      );
      // A connection opened after the signal is still served, and readiness fails.
      const agent = new Agent({ keepAlive: false });
      try {
        expect(await getKeptAlive(server.url, agent)).toBe(500);
      } finally {
        agent.destroy();
      }
      expect(await exited).toBe(0);
      expect(Date.now() - signalled).toBeGreaterThanOrEqual(graceMs);
      expect(server.logMessages()).toContain(
        `SIGTERM: draining; /health answers 500, requests are served for ${graceMs} ms`,
      );
    } finally {
      server.child.kill('SIGKILL');
    }
  });

  it('drains on SIGTERM while a client is connected, and a second Ctrl-C stops it at once', async () => {
    const server = await startServer(env());
    const agent = new Agent({ keepAlive: true });
    try {
      expect(await getKeptAlive(server.url, agent)).toBe(200);
      server.child.kill('SIGTERM');
      await eventually(
        async () => server.logMessages().some((message) => message.startsWith('SIGTERM: draining')),
        AT_ONCE_MS,
        20,
      );
      expect(await getKeptAlive(server.url, agent)).toBe(500);
      const { code, ms } = await timedStop(server, 'SIGINT');
      expect(code).toBe(1);
      expect(ms).toBeLessThan(AT_ONCE_MS);
    } finally {
      agent.destroy();
      server.child.kill('SIGKILL');
    }
  });
});
