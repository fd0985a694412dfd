import { EventEmitter } from 'node:events';
import {
  CHANGE_CHANNEL,
  type ChangeTopic,
  FEED_IDLE_PING_MS,
  FEED_QUERY_TIMEOUT_MS,
  FEED_RETRY_MAX_MS,
  FEED_RETRY_MIN_MS,
  FEED_SELF_TEST_MS,
  type FeedClient,
  PostgresChangeFeed,
} from './change-feed';

/** A pg Client stand-in: statements answer at once, or hang until their `query_timeout` when told. */
class FakeClient extends EventEmitter {
  readonly statements: string[] = [];
  hang = false;
  ended = false;

  connect = jest.fn(async () => undefined);

  end = jest.fn(async () => {
    this.ended = true;
  });

  query = jest.fn((config: { text: string; query_timeout?: number }) => {
    this.statements.push(config.text);
    if (!this.hang) return Promise.resolve({ rows: [{ answered: config.text }] });
    return new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error('Query read timeout')), config.query_timeout),
    );
  });

  notify(payload: string): void {
    this.emit('notification', { channel: CHANGE_CHANNEL, payload, processId: 1 });
  }
}

/**
 * A feed over fake clients. `delivers`: whether a notice sent through the sender reaches the
 * listening session (a real session), or not (a transaction pooler).
 */
function fakeFeed({ delivers = true } = {}) {
  const clients: FakeClient[] = [];
  const sender = {
    delivers,
    query: jest.fn(async (_sql: string, params: readonly unknown[] = []) => {
      if (sender.delivers) clients.at(-1)?.notify(String(params[1]));
      return [];
    }),
  };
  const feed = new PostgresChangeFeed(
    () => {
      const client = new FakeClient();
      clients.push(client);
      return client as unknown as FeedClient;
    },
    sender,
    'db:5432',
  );
  const heard: ChangeTopic[] = [];
  const liveness: boolean[] = [];
  feed.subscribe({ changed: (topic) => heard.push(topic), liveChanged: (live) => liveness.push(live) });
  return { feed, clients, sender, heard, liveness };
}

describe('PostgresChangeFeed', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('goes live once its own notice comes back, then passes on catalog and key notices', async () => {
    const { feed, clients, heard, liveness } = fakeFeed();
    feed.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(0);
    expect(feed.live).toBe(true);
    expect(liveness).toEqual([true]);
    expect(clients[0].statements).toEqual([`LISTEN ${CHANGE_CHANNEL}`]);
    clients[0].notify('catalog');
    clients[0].notify('keys');
    clients[0].notify('something else');
    expect(heard).toEqual(['catalog', 'keys']);
    await feed.onApplicationShutdown();
    expect(clients[0].ended).toBe(true);
  });

  it('stays down when LISTEN/NOTIFY is not delivered (a transaction pooler), and tries again after the longest wait', async () => {
    const { feed, clients, sender, liveness } = fakeFeed({ delivers: false });
    feed.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(FEED_SELF_TEST_MS);
    expect(feed.live).toBe(false);
    expect(liveness).toEqual([]);
    expect(clients[0].ended).toBe(true);
    await expect(feed.query('SELECT 1')).rejects.toThrow('not live');
    // A pooler will not start delivering: no attempt before the longest wait.
    await jest.advanceTimersByTimeAsync(FEED_RETRY_MAX_MS - 1);
    expect(clients).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(clients).toHaveLength(2);
    await jest.advanceTimersByTimeAsync(FEED_SELF_TEST_MS + FEED_RETRY_MAX_MS - 1);
    expect(clients).toHaveLength(2);
    sender.delivers = true;
    await jest.advanceTimersByTimeAsync(1);
    expect(clients).toHaveLength(3);
    expect(feed.live).toBe(true);
    await feed.onApplicationShutdown();
  });

  it('times the self-test from when its notice was sent: a slow send (a busy pool) is not taken for a pooler', async () => {
    const { feed, clients, sender } = fakeFeed();
    sender.query.mockImplementationOnce(async (_sql: string, params: readonly unknown[] = []) => {
      await new Promise((resolve) => setTimeout(resolve, 2 * FEED_SELF_TEST_MS));
      clients.at(-1)?.notify(String(params[1]));
      return [];
    });
    feed.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(2 * FEED_SELF_TEST_MS);
    expect(feed.live).toBe(true);
    expect(clients).toHaveLength(1);
    await feed.onApplicationShutdown();
  });

  it('a statement that times out on the session (a silent partition) takes it down at once and reconnects', async () => {
    const { feed, clients, liveness } = fakeFeed();
    feed.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(0);
    expect(await feed.query('SELECT 2')).toEqual([{ answered: 'SELECT 2' }]);
    clients[0].hang = true;
    const read = feed.query('SELECT 3');
    const failed = expect(read).rejects.toThrow('Query read timeout');
    await jest.advanceTimersByTimeAsync(FEED_QUERY_TIMEOUT_MS);
    await failed;
    expect(feed.live).toBe(false);
    expect(liveness).toEqual([true, false]);
    expect(clients[0].ended).toBe(true);
    // Notices on the dead session no longer count.
    clients[0].notify('catalog');
    await jest.advanceTimersByTimeAsync(FEED_RETRY_MIN_MS);
    expect(feed.live).toBe(true);
    expect(liveness).toEqual([true, false, true]);
    await feed.onApplicationShutdown();
  });

  it('a connection that ends or errors takes it down; a new one starts a fresh backoff', async () => {
    const { feed, clients, liveness } = fakeFeed();
    feed.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(0);
    clients[0].emit('end');
    expect(liveness).toEqual([true, false]);
    clients[0].emit('error', new Error('late error of the same client'));
    expect(liveness).toEqual([true, false]);
    await jest.advanceTimersByTimeAsync(FEED_RETRY_MIN_MS);
    expect(feed.live).toBe(true);
    clients[1].emit('error', new Error('ECONNRESET'));
    expect(feed.live).toBe(false);
    // Live in between: the wait starts from the minimum again.
    await jest.advanceTimersByTimeAsync(FEED_RETRY_MIN_MS);
    expect(feed.live).toBe(true);
    expect(clients).toHaveLength(3);
    await feed.onApplicationShutdown();
  });

  it('pings a session idle for a while (so a dead one is found), and not one in use', async () => {
    const { feed, clients, liveness } = fakeFeed();
    feed.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(0);
    const pings = () => clients[0].statements.filter((sql) => sql === 'SELECT 1').length;
    await jest.advanceTimersByTimeAsync(FEED_IDLE_PING_MS / 2);
    await feed.query('SELECT 2');
    await jest.advanceTimersByTimeAsync(FEED_IDLE_PING_MS - 1);
    expect(pings()).toBe(0);
    await jest.advanceTimersByTimeAsync(FEED_IDLE_PING_MS);
    expect(pings()).toBe(1);
    clients[0].hang = true;
    // Idleness is checked every quarter of the idle time.
    await jest.advanceTimersByTimeAsync(FEED_IDLE_PING_MS * 1.25 + FEED_QUERY_TIMEOUT_MS);
    expect(pings()).toBe(2);
    expect(liveness.slice(0, 2)).toEqual([true, false]);
    expect(clients[0].ended).toBe(true);
    await feed.onApplicationShutdown();
  });

  it('does not reconnect after shutdown', async () => {
    const { feed, clients } = fakeFeed();
    feed.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(0);
    await feed.onApplicationShutdown();
    expect(feed.live).toBe(false);
    await jest.advanceTimersByTimeAsync(10 * FEED_RETRY_MIN_MS);
    expect(clients).toHaveLength(1);
  });
});
