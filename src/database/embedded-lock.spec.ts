import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  EmbeddedDatabaseBusyError,
  lockEmbeddedDatabase,
  releaseEmbeddedDatabaseLocks,
} from './embedded-lock';

describe('embedded database lock', () => {
  let dir: string;
  const lockFile = () => join(dir, 'catalog-api.lock');

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'catalog-lock-'));
  });
  afterEach(() => {
    releaseEmbeddedDatabaseLocks();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes our pid, is idempotent within the process, and is removed on release', () => {
    lockEmbeddedDatabase(dir);
    lockEmbeddedDatabase(dir);
    expect(readFileSync(lockFile(), 'utf8')).toBe(String(process.pid));
    releaseEmbeddedDatabaseLocks();
    expect(existsSync(lockFile())).toBe(false);
  });

  it('refuses a folder held by another live process, naming it', () => {
    writeFileSync(lockFile(), String(process.ppid));
    expect(() => lockEmbeddedDatabase(dir)).toThrow(EmbeddedDatabaseBusyError);
    expect(() => lockEmbeddedDatabase(dir)).toThrow(`in use by process ${process.ppid}`);
  });

  it('takes over a lock left by a process that is gone, or an unreadable one', () => {
    writeFileSync(lockFile(), '2147483646');
    lockEmbeddedDatabase(dir);
    expect(readFileSync(lockFile(), 'utf8')).toBe(String(process.pid));
    releaseEmbeddedDatabaseLocks();
    writeFileSync(lockFile(), 'garbage');
    lockEmbeddedDatabase(dir);
    expect(readFileSync(lockFile(), 'utf8')).toBe(String(process.pid));
  });
});
