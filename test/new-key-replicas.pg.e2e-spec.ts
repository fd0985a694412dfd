import { cliEnvironment, runCli } from './support/cli';
import { freePort } from './support/free-port';
import { ServerProcess } from './support/server-process';
import { SERVED_IDS, seedServedCatalog } from './support/served-catalog';
import { type TestDatabase, createTestDatabase } from './support/test-database';

/**
 * A key the CLI has just created works on its first request on every running
 * replica, without waiting for the directories' periodic refresh (two built servers, one database).
 */
describe('a new key on running replicas', () => {
  let database: TestDatabase;
  let replicas: ServerProcess[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    if (database.config.kind !== 'postgres') throw new Error('PostgreSQL only');
    await seedServedCatalog(database.config);
    const env = { DATABASE_URL: database.config.url };
    replicas = await Promise.all([
      ServerProcess.start(await freePort(), env),
      ServerProcess.start(await freePort(), env),
    ]);
  }, 180_000);
  afterAll(async () => {
    await Promise.all(replicas.map((replica) => replica.stop()));
    await database?.drop();
  });

  it.each([1, 2, 3])('is accepted by both replicas on the first request (round %i)', async () => {
    const created = await runCli(
      ['keys:create', '--name', 'fresh', '--rpm', '600', '--monthly-quota', '1000', '--json'],
      cliEnvironment(database.config),
    );
    expect(created.code).toBe(0);
    const { key } = JSON.parse(created.stdout) as { key: string };
    const started = Date.now();
    const answers = await Promise.all(
      replicas.map((replica) =>
        replica.get(`/v1/titles/${SERVED_IDS[0]}`, { Authorization: `Bearer ${key}` }),
      ),
    );
    const ms = Date.now() - started;
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    console.info(`a new key: both replicas answered its first request 200 within ${ms} ms`);
  });

  it('still refuses an unknown key with the contract 401', async () => {
    const forged = `mov_live_${'x'.repeat(43)}`;
    const answers = await Promise.all(
      replicas.map((replica) => replica.get('/v1/movies', { Authorization: `Bearer ${forged}` })),
    );
    expect(answers.map((answer) => answer.status)).toEqual([401, 401]);
    expect(answers.map((answer) => JSON.parse(answer.body).error.code)).toEqual([
      'INVALID_API_KEY',
      'INVALID_API_KEY',
    ]);
  });
});
