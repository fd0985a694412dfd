import { loadConfig } from '../config/app-config';
import { databaseLabel, redactUrl } from './database-label';
import { StartupFailure, dataDirFailure, describeStartupFailure, listenFailure } from './startup-failure';

const errno = (code: string, fields: Record<string, unknown> = {}) =>
  Object.assign(new Error(`${code} something`), { code, ...fields });
const pgError = (code: string, message: string) =>
  Object.assign(new Error(message), { code, severity: 'FATAL' });

describe('start-up failure lines', () => {
  const postgres = loadConfig({
    DATABASE_URL: 'postgres://app:sekret@db.internal:5432/catalog?sslmode=require',
  });

  it.each([
    [errno('ECONNREFUSED', { address: '10.0.0.5', port: 5432 }), 'connection refused at 10.0.0.5:5432'],
    [errno('ENOTFOUND', { hostname: 'db.internal' }), 'host db.internal cannot be resolved'],
    [errno('ETIMEDOUT'), 'db.internal:5432 is unreachable (ETIMEDOUT)'],
    [pgError('3D000', 'database "catalog" does not exist'), 'database "catalog" does not exist'],
    [pgError('28P01', 'password authentication failed for user "app"'), 'the server refused the credentials'],
    [pgError('53300', 'sorry, too many clients already'), 'no connection slot free'],
    [new Error('Connection terminated due to connection timeout'), 'no answer from db.internal:5432 in time'],
  ])('names DATABASE_URL without its credentials for %s', (error, cause) => {
    const line = describeStartupFailure(error, postgres);
    expect(line).toMatch(/^DATABASE_URL \(postgres:\/\/db\.internal:5432\/catalog\): /);
    expect(line).toContain(cause);
    expect(line).not.toContain('sekret');
    expect(line).not.toContain('app:');
  });

  it('leaves a command’s own database errors (a constraint, a syntax error) to the caller', () => {
    expect(describeStartupFailure(pgError('23505', 'duplicate key'), postgres)).toBeNull();
    expect(describeStartupFailure(new Error('boom'), postgres)).toBeNull();
  });

  it('maps listen errors to PORT or HOST', () => {
    const config = { port: 3000, host: '0.0.0.0' };
    expect((listenFailure(errno('EADDRINUSE'), config) as Error).message).toBe(
      'PORT 3000: 0.0.0.0:3000 is already in use by another process',
    );
    expect((listenFailure(errno('ENOTFOUND'), { port: 1, host: 'nope' }) as Error).message).toBe(
      'HOST nope: cannot be resolved to an address',
    );
    expect(listenFailure(errno('EADDRNOTAVAIL'), config)).toBeInstanceOf(StartupFailure);
    const other = new Error('other');
    expect(listenFailure(other, config)).toBe(other);
  });

  it('maps file-system errors to DATA_DIR', () => {
    expect((dataDirFailure(errno('ENOTDIR'), '/srv/data') as Error).message).toBe(
      'DATA_DIR /srv/data: a file stands where a folder should be',
    );
    expect((dataDirFailure(errno('EACCES'), '/srv/data') as Error).message).toBe(
      'DATA_DIR /srv/data: not writable by this process',
    );
  });
});

describe('database labels', () => {
  it('drop the user, the password and the query', () => {
    expect(redactUrl('postgresql://u:p@h:5432/db?password=x')).toBe('postgresql://h:5432/db');
    expect(redactUrl('redis://:secret@cache:6379')).toBe('redis://cache:6379');
    expect(redactUrl('not a url')).toBe('(unparsable URL)');
  });

  it('name the embedded database by its folder', () => {
    expect(databaseLabel({ kind: 'embedded', dataDir: 'memory://' })).toBe('embedded PGlite in memory');
    expect(databaseLabel({ kind: 'embedded', dataDir: '/srv/data' })).toBe('embedded PGlite in /srv/data');
  });
});
