import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { needsSeed, seedEmbeddedDatabase } from './embedded-seed';

describe('embedded seed', () => {
  let root: string;
  let seed: string;
  let target: string;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'catalog-seed-'));
    seed = join(root, 'seed');
    mkdirSync(join(seed, 'base', '5'), { recursive: true, mode: 0o700 });
    writeFileSync(join(seed, 'PG_VERSION'), '17\n');
    writeFileSync(join(seed, 'base', '5', '1259'), Buffer.alloc(8192, 7));
    target = join(root, 'data', 'pglite');
    mkdirSync(target, { recursive: true });
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('fills an empty folder with a full copy of the seed, folders keeping their permissions', () => {
    expect(needsSeed(target, seed)).toBe(true);
    expect(seedEmbeddedDatabase(target, seed)).toBe(true);
    expect(readFileSync(join(target, 'PG_VERSION'), 'utf8')).toBe('17\n');
    expect(readFileSync(join(target, 'base', '5', '1259'))).toEqual(Buffer.alloc(8192, 7));
    expect(statSync(join(target, 'base')).mode & 0o777).toBe(0o700);
    expect(existsSync(`${target}.seeding`)).toBe(false);
    expect(needsSeed(target, seed)).toBe(false);
  });

  it('leaves a folder that holds anything, and does nothing without a seed', () => {
    writeFileSync(join(target, 'PG_VERSION'), '16\n');
    expect(seedEmbeddedDatabase(target, seed)).toBe(false);
    expect(readFileSync(join(target, 'PG_VERSION'), 'utf8')).toBe('16\n');
    rmSync(join(target, 'PG_VERSION'));
    expect(seedEmbeddedDatabase(target, join(root, 'no-seed'))).toBe(false);
    expect(existsSync(join(target, 'PG_VERSION'))).toBe(false);
  });
});
