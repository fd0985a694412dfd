import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The Node.js floor (package.json "engines"): the build's first step and both entry points refuse an
 * older Node with one line. An older Node is played by a preload that rewrites `process.versions.node`
 * and `process.version` before the entry point runs.
 */
const ROOT = join(__dirname, '..');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const nodeFloor = require('../scripts/node-floor.js') as {
  FLOOR: number[];
  parseFloor(range: string): number[];
  belowFloor(version: string, floor?: number[]): boolean;
};

describe('the Node.js floor', () => {
  const dir = mkdtempSync(join(tmpdir(), 'node-floor-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Runs `node <args>` as if this Node were `version`. */
  function runAs(version: string, args: string[]) {
    const preload = join(dir, `as-${version}.js`);
    writeFileSync(
      preload,
      `Object.defineProperty(process.versions, 'node', { value: ${JSON.stringify(version)} });\n` +
        `Object.defineProperty(process, 'version', { value: ${JSON.stringify(`v${version}`)} });\n`,
    );
    return spawnSync(process.execPath, ['--require', preload, ...args], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, LOG_LEVEL: 'silent', DATA_DIR: join(dir, 'data') },
      timeout: 30_000,
    });
  }

  it("is package.json's engines range", () => {
    const { engines } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      engines: { node: string };
    };
    expect(nodeFloor.FLOOR).toEqual(nodeFloor.parseFloor(engines.node));
    expect(nodeFloor.parseFloor('>=24.9')).toEqual([24, 9, 0]);
    expect(() => nodeFloor.parseFloor('^24')).toThrow(/engines\.node/);
  });

  it.each([
    ['20.20.2', true],
    ['24.8.9', true],
    ['v24.8.0', true],
    ['24.9.0', false],
    ['24.21.0', false],
    ['25.0.0', false],
  ])('counts %s as below 24.9: %s', (version, below) => {
    expect(nodeFloor.belowFloor(version, [24, 9, 0])).toBe(below);
  });

  const REFUSAL = `catalog-api needs Node.js ${nodeFloor.FLOOR[0]}.${nodeFloor.FLOOR[1]} or newer (package.json "engines"); this is v20.20.2.\n`;

  it.each([['dist/main.js'], ['dist/cli.js', '--help'], ['scripts/node-floor.js']])(
    '%s refuses an older Node with one line and no stack trace',
    (...args) => {
      const result = runAs('20.20.2', args);
      expect(result.status).toBe(1);
      expect(result.stderr).toBe(REFUSAL);
      expect(result.stdout).toBe('');
    },
  );

  it('lets the floor itself through', () => {
    const version = nodeFloor.FLOOR.join('.');
    expect(runAs(version, ['scripts/node-floor.js'])).toMatchObject({ status: 0, stderr: '' });
    const help = runAs(version, ['dist/cli.js', '--help']);
    expect(help).toMatchObject({ status: 0, stderr: '' });
    expect(help.stdout).toContain('Usage: node dist/cli.js');
  });
});
