import { Logger } from '@nestjs/common';
import {
  MAX_REPLICA_LAG_MS,
  REPLICA_CHECK_TIMEOUT_MS,
  type ReadServer,
  ReadRouter,
  replicaFailure,
} from './read-router';

type Answer = (sql: string) => Promise<unknown[]>;

/** A server whose statements answer as `answer` says, counting the reads it served. */
function server(name: string, answer: Answer) {
  const served: string[] = [];
  const executor = { query: jest.fn() };
  const fake: ReadServer & { served: string[]; answer: Answer } = {
    name,
    catalog: executor as ReadServer['catalog'],
    search: executor as ReadServer['search'],
    close: async () => undefined,
    served,
    answer,
  };
  executor.query.mockImplementation(async (sql: string) => {
    const rows = await fake.answer(sql);
    if (!sql.includes('pg_')) served.push(sql);
    return rows;
  });
  return fake;
}

const refused = () =>
  Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5433'), { code: 'ECONNREFUSED' });

/** A primary at WAL position `primaryLsn()`, a replica replaying up to `replicaLsn()`. */
function fleet(replicaCount = 1) {
  let primaryLsn = 100;
  const replayed = Array.from({ length: replicaCount }, () => 100);
  const primary = server('primary', async (sql) =>
    sql.includes('pg_current_wal_lsn') ? [{ lsn: `0/${primaryLsn.toString(16)}` }] : [{ from: 'primary' }],
  );
  const replicas = replayed.map((_, i) =>
    server(`replica-${i}`, async (sql) =>
      sql.includes('pg_is_in_recovery')
        ? [{ standby: true, lsn: `0/${replayed[i].toString(16)}` }]
        : [{ from: `replica-${i}` }],
    ),
  );
  let now = 0;
  const router = new ReadRouter(primary, replicas, 0, () => now);
  return {
    primary,
    replicas,
    router,
    write: (bytes: number) => (primaryLsn += bytes),
    replay: (i: number) => (replayed[i] = primaryLsn),
    advance: (ms: number) => (now += ms),
  };
}

describe('ReadRouter', () => {
  beforeEach(() => {
    jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => jest.restoreAllMocks());

  it('sends every read to the primary without replicas', async () => {
    const { router, primary } = fleet(0);
    await router.check();
    expect(await router.query('catalog', 'SELECT titles')).toEqual([{ from: 'primary' }]);
    expect(primary.served).toEqual(['SELECT titles']);
  });

  it('sends reads to a replica in rotation after the first check, and moves them only when it is left out', async () => {
    const { router, replicas } = fleet(2);
    expect(router.current.name).toBe('primary');
    await router.check();
    expect(router.current).toBe(replicas[0]);
    expect(await router.query('search', 'SELECT search')).toEqual([{ from: 'replica-0' }]);
    await router.check();
    expect(router.current).toBe(replicas[0]);
  });

  it('leaves out a replica whose read finds it unreachable, sends that read to the next server, and takes it back when a check finds it', async () => {
    const { router, replicas } = fleet(2);
    await router.check();
    const answer = replicas[0].answer;
    replicas[0].answer = async () => Promise.reject(refused());
    expect(await router.query('catalog', 'SELECT titles')).toEqual([{ from: 'replica-1' }]);
    expect(router.status(replicas[0])).toMatchObject({
      inRotation: false,
      reason: expect.stringMatching(/^unreachable/),
    });
    expect(router.current).toBe(replicas[1]);

    await router.check();
    expect(router.current).toBe(replicas[1]);
    replicas[0].answer = answer;
    await router.check();
    expect(router.current).toBe(replicas[0]);
  });

  it('moves every read hung on a silently partitioned replica as soon as a check finds it unreachable', async () => {
    const { router, replicas, primary } = fleet(1);
    await router.check();
    // Packets dropped: reads and checks alike wait for an answer that never comes.
    replicas[0].answer = () => new Promise(() => undefined);
    const hung = [router.query('catalog', 'SELECT titles'), router.query('search', 'SELECT search')];
    const settled = jest.fn();
    void Promise.all(hung).then(settled);
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).not.toHaveBeenCalled();
    const started = Date.now();
    await router.check();
    expect(Date.now() - started).toBeLessThan(REPLICA_CHECK_TIMEOUT_MS + 400);
    expect(router.status(replicas[0])).toMatchObject({
      inRotation: false,
      reason: expect.stringMatching(/^unreachable/),
    });
    expect(await Promise.all(hung)).toEqual([[{ from: 'primary' }], [{ from: 'primary' }]]);
    expect(primary.served).toEqual(['SELECT titles', 'SELECT search']);
  });

  it('checks a replica on its own connection when it has one', async () => {
    const { router, replicas } = fleet(1);
    const checks = { query: jest.fn(async () => [{ standby: true, lsn: '0/64' }]) };
    Object.assign(replicas[0], { checks });
    replicas[0].answer = () => new Promise(() => undefined);
    await router.check();
    expect(checks.query).toHaveBeenCalledTimes(1);
    expect(router.status(replicas[0]).inRotation).toBe(true);
  });

  it('falls back to the primary when no replica is in rotation', async () => {
    const { router, replicas, primary } = fleet(1);
    await router.check();
    replicas[0].answer = async () => Promise.reject(refused());
    expect(await router.query('catalog', 'SELECT titles')).toEqual([{ from: 'primary' }]);
    expect(router.current).toBe(primary);
  });

  it('sends a read cancelled by a recovery conflict to the primary without leaving the replica out', async () => {
    const { router, replicas } = fleet(1);
    await router.check();
    const answer = replicas[0].answer;
    replicas[0].answer = async () =>
      Promise.reject(
        Object.assign(new Error('canceling statement due to conflict with recovery'), { code: '40001' }),
      );
    expect(await router.query('catalog', 'SELECT titles')).toEqual([{ from: 'primary' }]);
    replicas[0].answer = answer;
    expect(router.current).toBe(replicas[0]);
  });

  it('sends a read that waited too long for a lock (a standby replaying a table swap) to the primary', async () => {
    const { router, replicas } = fleet(1);
    await router.check();
    replicas[0].answer = async () =>
      Promise.reject(Object.assign(new Error('canceling statement due to lock timeout'), { code: '55P03' }));
    expect(await router.query('search', 'SELECT search')).toEqual([{ from: 'primary' }]);
    expect(router.current).toBe(replicas[0]);
  });

  it('passes on a failure the primary would have too (a statement timeout) without retrying', async () => {
    const { router, replicas, primary } = fleet(1);
    await router.check();
    replicas[0].answer = async () =>
      Promise.reject(
        Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }),
      );
    await expect(router.query('catalog', 'SELECT titles')).rejects.toThrow('statement timeout');
    expect(primary.served).toEqual([]);
    expect(router.current).toBe(replicas[0]);
  });

  it('leaves out a replica that stops replaying while the primary writes, and takes it back once it caught up', async () => {
    const { router, replicas, primary, write, replay, advance } = fleet(1);
    await router.check();
    for (let second = 0; second < 3; second++) {
      advance(1_000);
      write(50);
      await router.check();
    }
    expect(router.current).toBe(primary);
    expect(router.status(replicas[0]).lagMs).toBeGreaterThan(MAX_REPLICA_LAG_MS);
    expect(router.status(replicas[0]).reason).toMatch(/behind the primary/);

    replay(0);
    advance(1_000);
    await router.check();
    expect(router.current).toBe(replicas[0]);
    expect(router.status(replicas[0])).toEqual({ inRotation: true, reason: null, lagMs: 0 });
  });

  it('keeps a replica with nothing to replay in rotation while the primary is idle', async () => {
    const { router, replicas, advance } = fleet(1);
    for (let second = 0; second < 15; second++) {
      advance(1_000);
      await router.check();
    }
    expect(router.current).toBe(replicas[0]);
  });

  it('leaves out a server that is not a standby (a promoted replica goes its own way)', async () => {
    const { router, replicas, primary } = fleet(1);
    replicas[0].answer = async () => [{ standby: false, lsn: null }];
    await router.check();
    expect(router.current).toBe(primary);
    expect(router.status(replicas[0]).reason).toMatch(/not a standby/);
  });
});

describe('replicaFailure', () => {
  it.each([
    [{ code: 'ECONNREFUSED', message: 'connect ECONNREFUSED' }, 'unreachable'],
    [{ code: '57P01', message: 'terminating connection due to administrator command' }, 'unreachable'],
    [{ code: '57P03', message: 'the database system is shutting down' }, 'unreachable'],
    [{ code: '08006', message: 'connection failure' }, 'unreachable'],
    [new Error('Connection terminated unexpectedly'), 'unreachable'],
    [new Error('timeout exceeded when trying to connect'), 'unreachable'],
    [new Error('Query read timeout'), 'unreachable'],
    [{ code: '40001', message: 'canceling statement due to conflict with recovery' }, 'conflict'],
    [{ code: '40001', message: 'could not serialize access' }, null],
    [{ code: '55P03', message: 'canceling statement due to lock timeout' }, 'conflict'],
    [{ code: '57014', message: 'canceling statement due to statement timeout' }, null],
    [{ code: '42P01', message: 'relation "titles" does not exist' }, null],
  ])('%j is %s', (error, kind) => {
    expect(replicaFailure(error)).toBe(kind);
  });
});
