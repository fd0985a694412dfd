import type { Pool } from 'pg';
import { PostgresDatabase, SessionSplitError } from './database';

/** A pool of one fake connection whose server pid follows `pids` (one per pg_backend_pid() read). */
function fakePool(pids: number[]) {
  const release = jest.fn();
  const client = {
    query: jest.fn(async (query: string | { text: string }) => {
      const text = typeof query === 'string' ? query : query.text;
      if (text.includes('pg_backend_pid')) return { rows: [{ pid: pids.shift() }] };
      return { rows: [] };
    }),
    release,
  };
  return { pool: { connect: async () => client } as unknown as Pool, release };
}

describe('PostgresDatabase.session', () => {
  it('runs the work on one connection and returns its result when the session stays whole', async () => {
    const { pool, release } = fakePool([41, 41]);
    await expect(new PostgresDatabase(pool).session(async () => 'done')).resolves.toBe('done');
    expect(release).toHaveBeenCalledWith(undefined);
  });

  it('says the session was split, in one line, when the work failed on another server connection', async () => {
    const { pool, release } = fakePool([41, 42]);
    const work = async () => {
      throw new Error('relation "title_input_staging" does not exist');
    };
    const failure = new PostgresDatabase(pool).session(work);
    await expect(failure).rejects.toBeInstanceOf(SessionSplitError);
    await expect(failure).rejects.toThrow(/DATABASE_DIRECT_URL/);
    expect(release).toHaveBeenCalledWith(expect.any(SessionSplitError));
  });

  it('says so too when the work finished but its statements did not all run on one connection', async () => {
    const { pool } = fakePool([41, 42]);
    await expect(new PostgresDatabase(pool).session(async () => 'done')).rejects.toBeInstanceOf(
      SessionSplitError,
    );
  });

  it('keeps the work error when the session stayed whole', async () => {
    const { pool } = fakePool([41, 41]);
    const work = async () => {
      throw new Error('duplicate key');
    };
    await expect(new PostgresDatabase(pool).session(work)).rejects.toThrow('duplicate key');
  });

  it('uses the session pool (DATABASE_DIRECT_URL) for sessions when one is given', async () => {
    const requests = fakePool([]);
    const sessions = fakePool([7, 7]);
    await new PostgresDatabase(requests.pool, sessions.pool).session(async () => undefined);
    expect(sessions.release).toHaveBeenCalled();
    expect(requests.release).not.toHaveBeenCalled();
  });
});
