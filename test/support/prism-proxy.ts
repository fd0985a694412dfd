import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port';
import { sleep } from './timing';

const PRISM = join(__dirname, '..', '..', 'node_modules', '@stoplight', 'prism-cli', 'dist', 'index.js');

/** One finding of Prism's, as its `sl-violations` header lists them. */
export interface PrismViolation {
  location: string[];
  severity: string;
  code?: string | number;
  message: string;
}

/**
 * Stoplight Prism's validating proxy (`prism proxy`) in a child process, in front of `upstream`:
 * it forwards each request unchanged, validates the request and the upstream's answer against
 * `document`, and hands the answer back with an `sl-violations` header listing what it found
 * (`location` starts with `request` or `response`). Without `--errors`, so a deliberately invalid
 * request is still forwarded (a request violation) rather than answered by Prism itself; with
 * `--cors=false`, so it adds no CORS headers of its own.
 */
export class PrismProxy {
  private output = '';

  private constructor(
    private readonly child: ChildProcess,
    private readonly dir: string,
    readonly baseUrl: string,
  ) {
    child.stdout?.on('data', (chunk: Buffer) => (this.output = (this.output + chunk).slice(-20_000)));
    child.stderr?.on('data', (chunk: Buffer) => (this.output = (this.output + chunk).slice(-20_000)));
  }

  static async start(document: object, upstream: string): Promise<PrismProxy> {
    const dir = mkdtempSync(join(tmpdir(), 'prism-'));
    const file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(document));
    const port = await freePort();
    const args = [PRISM, 'proxy', file, upstream, '--host', '127.0.0.1', '--port', String(port)];
    const child = spawn(process.execPath, [...args, '--errors=false', '--cors=false'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const proxy = new PrismProxy(child, dir, `http://127.0.0.1:${port}`);
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`prism exited ${child.exitCode}: ${proxy.output}`);
      try {
        // Any answer will do: Prism forwards it once it listens.
        await fetch(`${proxy.baseUrl}/health`);
        return proxy;
      } catch {
        if (Date.now() > deadline) {
          await proxy.stop();
          throw new Error(`prism did not answer within 30 s: ${proxy.output}`);
        }
        await sleep(100);
      }
    }
  }

  /** What Prism found in one exchange it proxied: its `sl-violations` header, parsed. */
  static violations(headers: Record<string, string | string[] | undefined>): PrismViolation[] {
    const value = headers['sl-violations'];
    if (value === undefined) return [];
    const text = String(value);
    if (text.startsWith('Too many violations!')) {
      return [{ location: ['response'], severity: 'Error', message: text.slice(0, 500) }];
    }
    return JSON.parse(text) as PrismViolation[];
  }

  /** Prism's log so far (the tail), for a failure message. */
  log(): string {
    return this.output;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      const exited = new Promise((resolve) => this.child.once('exit', resolve));
      this.child.kill('SIGTERM');
      const stubborn = setTimeout(() => this.child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(stubborn);
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}
