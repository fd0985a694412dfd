import { Agent } from 'node:http';
import { Client } from 'pg';
import { RESERVATION } from '../src/limits/limits-policy';
import { cliEnvironment, runCli } from './support/cli';
import { FixtureFiles, basicsRow, ratingsRow } from './support/imdb-files';
import { type HttpAnswer, ServerProcess } from './support/server-process';
import { createTestApp } from './support/test-app';
import { type TestDatabase, createTestDatabase } from './support/test-database';
import { eventually, sleep } from './support/timing';
import { titleRecord } from './support/titles';
import { freePort } from './support/free-port';

/**
 * Three replicas of the built server (`node dist/main.js`) on one PostgreSQL database,
 * many keys, thousands of concurrent requests. Proves that the limits hold and are reached exactly
 * across replicas, that a re-ingest under load never serves a mix of two catalogs, and that a
 * replica killed with SIGKILL mid-burst loses no counted usage.
 */

const REPLICAS = 3;

/** A key of the limits burst: its policy and how many requests each wave sends with it. */
interface LimitKey {
  kind: 'minute' | 'month' | 'under';
  rpm: number;
  quota: number;
  /** Requests per wave, spread round-robin over the replicas. */
  demand: number;
  id: string;
  key: string;
}

/** Ten keys bound by the minute, ten by the month, ten that never reach a limit. */
function limitKeySpecs(): Array<Omit<LimitKey, 'id' | 'key'>> {
  const specs: Array<Omit<LimitKey, 'id' | 'key'>> = [];
  for (let j = 0; j < 10; j++) {
    // Over the limit: every replica gets more requests than the whole limit, so none can be left
    // holding allowance it has no demand for (see "reaches exactly" below).
    const rpm = 6 + 3 * j;
    specs.push({ kind: 'minute', rpm, quota: 1_000_000, demand: REPLICAS * (rpm + 1) });
    const quota = 4 + 3 * j;
    specs.push({ kind: 'month', rpm: 1_000_000, quota, demand: REPLICAS * (quota + 1) });
    specs.push({ kind: 'under', rpm: 2_000 + j, quota: 5_000 + j, demand: 45 + 3 * j });
  }
  return specs;
}

const OLD = { count: 300, marker: 'Alpha', year: 1990 };
const NEW = { count: 3_000, marker: 'Beta', year: 2020 };
const imdbId = (i: number) => `tt${7_000_000 + i}`;

describe('three replicas under load: limits, a re-ingest and a SIGKILL', () => {
  let database: TestDatabase;
  let replicas: ServerProcess[];
  let admin: Client;
  let limitKeys: LimitKey[];
  let crashKeys: Array<{ id: string; key: string; quota: number }>;
  let loadKey: string;
  const agents = Array.from({ length: REPLICAS }, () => new Agent({ keepAlive: true, maxSockets: 96 }));

  beforeAll(async () => {
    database = await createTestDatabase();
    if (database.config.kind !== 'postgres') throw new Error('PostgreSQL only');
    // The old catalog and every key exist before the replicas start, so each loads the keys at once.
    const seeder = await createTestApp({}, database);
    try {
      await seeder.writer.replaceCatalog({
        titles: Array.from({ length: OLD.count }, (_, i) =>
          titleRecord({
            imdbId: imdbId(i),
            type: 'movie',
            title: `${OLD.marker} Movie ${i}`,
            year: OLD.year,
            ratingAverage: 6,
            ratingVotes: 1_000 + i,
          }),
        ),
      });
      limitKeys = [];
      for (const [i, spec] of limitKeySpecs().entries()) {
        const created = await seeder.apiKeys.create({
          name: `limits-${i}`,
          rpm: spec.rpm,
          monthlyQuota: spec.quota,
        });
        limitKeys.push({ ...spec, id: created.summary.id, key: created.key });
      }
      crashKeys = [];
      // Ten keys no burst can limit, and five whose quota the burst exceeds.
      for (let i = 0; i < 15; i++) {
        const quota = i < 10 ? 10_000_000 : 40 + 10 * (i - 10);
        const created = await seeder.apiKeys.create({
          name: `crash-${i}`,
          rpm: 1_000_000,
          monthlyQuota: quota,
        });
        crashKeys.push({ id: created.summary.id, key: created.key, quota });
      }
      loadKey = seeder.key;
    } finally {
      await seeder.close();
    }
    const ports = await Promise.all(Array.from({ length: REPLICAS }, () => freePort()));
    replicas = await Promise.all(
      ports.map((port) =>
        ServerProcess.start(port, { DATABASE_URL: databaseUrl(database), SHUTDOWN_GRACE_MS: '0' }),
      ),
    );
    admin = new Client({ connectionString: databaseUrl(database) });
    await admin.connect();
  }, 120_000);

  afterAll(async () => {
    await Promise.all((replicas ?? []).map((replica) => replica.stop('SIGKILL')));
    for (const agent of agents) agent.destroy();
    await admin?.end();
    await database?.drop();
  });

  /** What the answer was: 200, the code of a refusal, or `socket` when the connection failed. */
  const outcome = (answer: HttpAnswer | null): string => {
    if (!answer) return 'socket';
    if (answer.status === 200) return '200';
    try {
      return String((JSON.parse(answer.body) as { error: { code: string } }).error.code);
    } catch {
      return `${answer.status} (not JSON)`;
    }
  };
  const ask = (replica: number, path: string, key: string): Promise<HttpAnswer | null> =>
    replicas[replica].get(path, { Authorization: `Bearer ${key}` }, agents[replica]).catch(() => null);
  const stored = async (table: 'rate_counters' | 'quota_counters', counter: string): Promise<number> => {
    const { rows } = await admin.query<{ reserved: number }>(
      `SELECT reserved::int AS reserved FROM ${table} WHERE key = $1`,
      [counter],
    );
    return rows[0]?.reserved ?? 0;
  };
  const tally = (outcomes: string[]) =>
    outcomes.reduce<Record<string, number>>((acc, o) => ({ ...acc, [o]: (acc[o] ?? 0) + 1 }), {});

  /**
   * One wave: every key's requests are queued together, key after key, round-robin over the
   * replicas (96 sockets per replica), so each key's demand reaches every replica at once.
   */
  async function wave(keys: LimitKey[]): Promise<Map<string, string[]>> {
    const jobs = keys.flatMap((k) =>
      Array.from({ length: k.demand }, (_, i) =>
        ask(i % REPLICAS, '/v1/movies?limit=1', k.key).then((answer) => ({ id: k.id, o: outcome(answer) })),
      ),
    );
    const results = new Map<string, string[]>(keys.map((k) => [k.id, []]));
    for (const { id, o } of await Promise.all(jobs)) results.get(id)?.push(o);
    return results;
  }

  it('never exceeds the minute policy or the quota of 30 keys, and reaches them exactly', async () => {
    const limited = limitKeys.filter((k) => k.kind !== 'under');
    const startedAt = Date.now();
    const first = await wave(limitKeys);
    const firstDoneAt = Date.now();

    for (const k of limitKeys) {
      const outcomes = first.get(k.id) ?? [];
      const counts = tally(outcomes);
      const limit = k.kind === 'minute' ? k.rpm : k.quota;
      expect({
        key: k.id,
        kind: k.kind,
        unexpected: outcomes.filter((o) => !['200', refusal(k)].includes(o)),
      }).toEqual({ key: k.id, kind: k.kind, unexpected: [] });
      if (k.kind === 'under') expect({ key: k.id, ok: counts['200'] }).toEqual({ key: k.id, ok: k.demand });
      else expect(counts['200'] ?? 0).toBeLessThanOrEqual(limit);
    }

    // A replica may still hold allowance it reserved and had no demand left for: it gives it back
    // after idling for 1 s. Wait until the stored counters hold exactly what was accepted (minute)
    // and what was counted (month), and until any "window exhausted" mark (1 s) has lapsed.
    const accepted = (id: string) => (first.get(id) ?? []).filter((o) => o === '200').length;
    await eventually(async () => {
      for (const k of limited) {
        if ((await stored('quota_counters', `month:${k.id}`)) !== accepted(k.id)) return false;
        const passedMinute = (first.get(k.id) ?? []).filter((o) => o !== 'RATE_LIMITED').length;
        if ((await stored('rate_counters', `minute:${k.id}`)) !== passedMinute) return false;
      }
      return true;
    }, 15_000);
    const sinceWave = Date.now() - firstDoneAt;
    if (sinceWave < RESERVATION.exhaustedRecheckMs + 100) {
      await sleep(RESERVATION.exhaustedRecheckMs + 100 - sinceWave);
    }

    // The same demand again, in the same minute window: what the first wave left is now taken.
    const second = await wave(limited);
    const elapsed = Date.now() - startedAt;
    let requests = [...first.values()].reduce((n, o) => n + o.length, 0);
    for (const k of limited) {
      const outcomes = [...(first.get(k.id) ?? []), ...(second.get(k.id) ?? [])];
      requests += second.get(k.id)?.length ?? 0;
      const counts = tally(outcomes);
      const limit = k.kind === 'minute' ? k.rpm : k.quota;
      expect({ key: k.id, kind: k.kind, counts }).toEqual({
        key: k.id,
        kind: k.kind,
        counts: { '200': limit, [refusal(k)]: outcomes.length - limit },
      });
      expect(await stored('quota_counters', `month:${k.id}`)).toBeGreaterThanOrEqual(limit);
      if (k.kind === 'month') expect(await stored('quota_counters', `month:${k.id}`)).toBe(limit);
    }
    // Both waves fell in one minute window of every minute-bound key (a window opens with the
    // key's first request and lasts 60 s on the database's clock): each window is still open and
    // holds exactly the policy.
    for (const k of limited.filter((k) => k.kind === 'minute')) {
      const { rows } = await admin.query<{ reserved: number; open: boolean }>(
        `SELECT reserved::int AS reserved, expires_at > now() AS open FROM rate_counters WHERE key = $1`,
        [`minute:${k.id}`],
      );
      expect({ key: k.id, ...rows[0] }).toEqual({ key: k.id, reserved: k.rpm, open: true });
    }
    const reachedInFirst = limited.filter((k) => accepted(k.id) === (k.kind === 'minute' ? k.rpm : k.quota));
    const acceptedInSecond = [...second.values()].flat().filter((o) => o === '200').length;
    console.info(
      `limits across ${REPLICAS} replicas: ${limitKeys.length} keys, ${requests} requests in ${elapsed} ms; ` +
        `wave 1 reached the limit of ${reachedInFirst.length} of ${limited.length} limited keys, ` +
        `wave 2 accepted ${acceptedInSecond} more`,
    );
  });

  it('serves every answer wholly from the old or the new catalog while the CLI re-ingests', async () => {
    const files = new FixtureFiles();
    const basics = files.basics(
      'new.tsv',
      Array.from({ length: NEW.count }, (_, i) =>
        basicsRow(imdbId(i), 'movie', `${NEW.marker} Movie ${i}`, { year: NEW.year }),
      ),
    );
    const ratings = files.ratings(
      'new-ratings.tsv',
      Array.from({ length: NEW.count }, (_, i) => ratingsRow(imdbId(i), '7.0', 5_000 + i)),
    );
    const catalogs = new Map([
      [OLD.marker, OLD],
      [NEW.marker, NEW],
    ]);
    const problems: string[] = [];
    const seen = { [OLD.marker]: 0, [NEW.marker]: 0 };
    /** Every title's marker and year agree, one catalog per answer, and the totals are that catalog's. */
    const check = (path: string, answer: HttpAnswer | null, total?: (c: typeof OLD) => number) => {
      if (!answer || answer.status !== 200) {
        problems.push(`${path}: ${answer ? `${answer.status} ${answer.body.slice(0, 100)}` : 'no answer'}`);
        return;
      }
      const body = JSON.parse(answer.body) as {
        data: Array<{ title: string; year: number }>;
        meta: { total_results?: number };
      };
      const markers = new Set<string>();
      for (const title of body.data) {
        const marker = title.title.split(' ')[0];
        const catalog = catalogs.get(marker);
        if (!catalog || catalog.year !== title.year)
          problems.push(`${path}: mixed title ${JSON.stringify(title)}`);
        markers.add(marker);
      }
      if (markers.size !== 1) problems.push(`${path}: ${markers.size} catalogs in one answer`);
      const [marker] = [...markers];
      const catalog = catalogs.get(marker);
      if (catalog && total && body.meta.total_results !== total(catalog)) {
        problems.push(`${path}: ${marker} titles with total ${body.meta.total_results}`);
      }
      if (catalog) seen[marker]++;
    };
    const routes: Array<{ path: (n: number) => string; total?: (c: typeof OLD) => number }> = [
      { path: (n) => `/v1/movies?limit=20&page=${1 + (n % 10)}`, total: (c) => c.count },
      { path: (n) => `/v1/search?q=movie&limit=10&page=${1 + (n % 5)}`, total: (c) => c.count },
      { path: (n) => `/v1/titles/${imdbId((n * 37) % OLD.count)}` },
    ];

    let loading = true;
    const load = runCli(
      ['catalog:ingest', '--basics', basics, '--ratings', ratings],
      cliEnvironment(database.config),
    ).finally(() => (loading = false));
    let requests = 0;
    let healthChecks = 0;
    /** One client per replica and route, each asking again as soon as it has its answer. */
    const client = async (replica: number, route: (typeof routes)[number]) => {
      for (let n = 0; loading; n++) {
        const path = route.path(n);
        check(path, await ask(replica, path, loadKey), route.total);
        requests++;
      }
    };
    const health = async (replica: number) => {
      while (loading) {
        const answer = await ask(replica, '/health', loadKey);
        const count = answer && JSON.parse(answer.body).data?.[0]?.catalog?.title_count;
        if (answer?.status !== 200 || ![OLD.count, NEW.count].includes(count)) {
          problems.push(`/health: ${answer?.status} title_count ${count}`);
        }
        healthChecks++;
      }
    };
    try {
      await Promise.all([
        ...replicas.flatMap((_, r) => routes.map((route) => client(r, route))),
        ...replicas.map((_, r) => health(r)),
      ]);
      const result = await load;
      expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    } finally {
      files.cleanup();
    }
    expect(problems.slice(0, 10)).toEqual([]);
    const during = { ...seen };
    expect(during[OLD.marker]).toBeGreaterThan(0);
    // After the load, every replica serves the new catalog (the contract says within a second).
    await eventually(
      async () => {
        for (let r = 0; r < REPLICAS; r++) {
          for (const route of routes) {
            const path = route.path(r);
            const answer = await ask(r, path, loadKey);
            if (!answer || answer.status !== 200 || !answer.body.includes(NEW.marker)) return false;
            check(path, answer, route.total);
          }
        }
        return true;
      },
      5_000,
      100,
    );
    expect(problems.slice(0, 10)).toEqual([]);
    console.info(
      `re-ingest under load: ${requests} catalog answers during the load (${during[OLD.marker]} old, ` +
        `${during[NEW.marker]} new), ${healthChecks} health checks, 0 mixed`,
    );
  });

  it('keeps every 200 a client saw in the stored usage when a replica is killed mid-burst', async () => {
    const total = 3_000;
    const victim = REPLICAS - 1;
    let answered = 0;
    const killAt = total / 3;
    const kill: { exit: Promise<unknown> | null } = { exit: null };
    const results = await Promise.all(
      Array.from({ length: total }, (_, i) => {
        const k = crashKeys[i % crashKeys.length];
        const replica = Math.floor(i / crashKeys.length) % REPLICAS;
        return ask(replica, '/v1/movies?limit=1', k.key).then((answer) => {
          if (++answered === killAt) kill.exit = replicas[victim].stop('SIGKILL');
          return { id: k.id, replica, o: outcome(answer) };
        });
      }),
    );
    expect(kill.exit).not.toBeNull();
    expect(await kill.exit).toEqual({ code: null, signal: 'SIGKILL' });
    // The survivors give back what they hold unspent when they stop, so the stored usage is
    // then exactly what they accepted plus what the killed replica had reserved.
    const survivors = replicas.filter((_, r) => r !== victim);
    const exits = await Promise.all(survivors.map((replica) => replica.stop('SIGTERM')));
    expect(exits).toEqual(survivors.map(() => ({ code: 0, signal: null })));

    const byOutcome = tally(results.map((r) => r.o));
    expect(results.filter((r) => !['200', 'MONTHLY_QUOTA_EXCEEDED', 'socket'].includes(r.o))).toEqual([]);
    // Only the killed replica's connections may fail.
    expect(results.filter((r) => r.o === 'socket' && r.replica !== victim)).toEqual([]);
    expect(results.filter((r) => r.replica === victim && r.o === '200').length).toBeGreaterThan(0);

    /**
     * The bound: a replica that dies takes with it the unspent part of the blocks it holds (its
     * current block and, when reserved ahead, the next: at most maxBlock × (1 + reserveAheadShare))
     * and the requests it admitted but never answered (at most those its clients saw fail).
     */
    const worst: number[] = [];
    for (const k of crashKeys) {
      const mine = results.filter((r) => r.id === k.id);
      const seen = mine.filter((r) => r.o === '200').length;
      const unanswered = mine.filter((r) => r.o === 'socket').length;
      const usage = await stored('quota_counters', `month:${k.id}`);
      expect({ key: k.id, usageCoversSeen: usage >= seen }).toEqual({ key: k.id, usageCoversSeen: true });
      expect(usage - seen).toBeLessThanOrEqual(
        RESERVATION.maxBlock * (1 + RESERVATION.reserveAheadShare) + unanswered,
      );
      if (k.quota < total) {
        // The crash lets no one past a quota: neither the answers nor the stored usage exceed it.
        expect({ key: k.id, seen, usage }).toEqual({
          key: k.id,
          seen: Math.min(seen, k.quota),
          usage: Math.min(usage, k.quota),
        });
        expect(mine.filter((r) => r.o === 'MONTHLY_QUOTA_EXCEEDED').length).toBeGreaterThan(0);
      } else {
        expect(mine.filter((r) => r.o === 'MONTHLY_QUOTA_EXCEEDED')).toEqual([]);
      }
      worst.push(usage - seen);
    }
    console.info(
      `SIGKILL mid-burst: ${total} requests for ${crashKeys.length} keys, ${byOutcome['200']} × 200 seen, ` +
        `${byOutcome.MONTHLY_QUOTA_EXCEEDED ?? 0} × MONTHLY_QUOTA_EXCEEDED, ${byOutcome.socket ?? 0} ` +
        `connections failed on the killed replica, usage − seen per key ${Math.min(...worst)}–${Math.max(...worst)}`,
    );
  });
});

function databaseUrl(database: TestDatabase): string {
  if (database.config.kind !== 'postgres') throw new Error('PostgreSQL only');
  return database.config.url;
}

/** The refusal a key's excess demand gets. */
function refusal(k: LimitKey): string {
  return k.kind === 'month' ? 'MONTHLY_QUOTA_EXCEEDED' : 'RATE_LIMITED';
}
