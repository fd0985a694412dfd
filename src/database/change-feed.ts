import { Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { Client, Notification, QueryConfig } from 'pg';
import type { SqlExecutor } from './database';

/** What a change notice names: the live catalog (an ingest committed) or the API keys. */
export type ChangeTopic = 'catalog' | 'keys';

/** The one channel every process announces on and every server process listens to. */
export const CHANGE_CHANNEL = 'catalog_api_changes';

/** A new listening session is trusted once a notice it sent itself came back within this long. */
export const FEED_SELF_TEST_MS = 1_000;
/** A statement on the listening session that has not answered in this long takes the feed down. */
export const FEED_QUERY_TIMEOUT_MS = 1_000;
/**
 * A live session with no statement for this long is pinged, so a silently dead one is found even
 * when no consumer reads on it (the catalog state's safety net does, every 5 s).
 */
export const FEED_IDLE_PING_MS = 10_000;
/**
 * Reconnection waits double up to the maximum; a failed self-test (a pooler, which will not start
 * delivering) waits the maximum at once rather than spend statements on doomed attempts.
 */
export const FEED_RETRY_MIN_MS = 1_000;
export const FEED_RETRY_MAX_MS = 60_000;

const TOPICS: ReadonlySet<string> = new Set<ChangeTopic>(['catalog', 'keys']);

/**
 * Announces a change inside the caller's transaction: PostgreSQL delivers it when (and only if)
 * the transaction commits. Valid through a transaction pooler: sending needs no session.
 */
export async function announceChange(tx: SqlExecutor, topic: ChangeTopic): Promise<void> {
  await tx.query('SELECT pg_notify($1, $2)', [CHANGE_CHANNEL, topic]);
}

export interface ChangeListener {
  /** A change committed by some process (this one included), while the feed is live. */
  changed?(topic: ChangeTopic): void;
  /** The feed became live (true) or was lost (false): notices may have been missed around it. */
  liveChanged?(live: boolean): void;
}

/** LISTEN/NOTIFY change notices. `live` only while notices are known to arrive; else consumers poll. */
export abstract class ChangeFeed implements SqlExecutor {
  /** False where this process never listens (embedded database, read replicas, the CLI). */
  abstract readonly enabled: boolean;
  abstract readonly live: boolean;
  abstract subscribe(listener: ChangeListener): () => void;
  /**
   * One statement on the listening session itself, bounded by FEED_QUERY_TIMEOUT_MS: it answers
   * and proves the session alive at once. Any failure takes the feed down (and rejects).
   */
  abstract query<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<Row[]>;
}

/** No feed: never live, so every consumer polls. */
export class NoChangeFeed extends ChangeFeed {
  readonly enabled = false;
  readonly live = false;

  subscribe(): () => void {
    return () => undefined;
  }

  query<Row>(): Promise<Row[]> {
    return Promise.reject(new Error('this process has no change feed'));
  }
}

/** The part of pg's `Client` the feed uses (tests give a fake). */
export type FeedClient = Pick<Client, 'connect' | 'end' | 'on'> & {
  query(config: QueryConfig & { query_timeout?: number }): Promise<{ rows: unknown[] }>;
};

/**
 * One LISTEN session, live only after a self-test (poolers silently drop notices); any failure takes
 * it down at once, never throwing or holding the start. See docs/operations.md, Change feed.
 */
export class PostgresChangeFeed extends ChangeFeed implements OnApplicationBootstrap, OnApplicationShutdown {
  readonly enabled = true;
  private readonly logger = new Logger('ChangeFeed');
  private readonly listeners = new Set<ChangeListener>();
  private session: FeedClient | null = null;
  private isLive = false;
  private stopped = false;
  private failures = 0;
  private lastAnswerAt = 0;
  private awaitedToken: { token: string; heard: () => void } | null = null;
  private retryTimer: NodeJS.Timeout | undefined;
  private pingTimer: NodeJS.Timeout | undefined;

  /** `where`: host:port, for the log lines (never credentials). */
  constructor(
    private readonly newClient: () => FeedClient,
    private readonly sender: SqlExecutor,
    private readonly where: string,
    private readonly now: () => number = Date.now,
  ) {
    super();
  }

  get live(): boolean {
    return this.isLive;
  }

  onApplicationBootstrap(): void {
    this.pingTimer = setInterval(() => this.pingIfIdle(), FEED_IDLE_PING_MS / 4).unref();
    void this.open();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearInterval(this.pingTimer);
    clearTimeout(this.retryTimer);
    const session = this.session;
    this.session = null;
    this.isLive = false;
    await session?.end().catch(() => undefined);
  }

  subscribe(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async query<Row>(sql: string, params: readonly unknown[] = []): Promise<Row[]> {
    const session = this.session;
    if (!session || !this.isLive) throw new Error('the change feed is not live');
    try {
      const result = await session.query({
        text: sql,
        values: params as unknown[],
        query_timeout: FEED_QUERY_TIMEOUT_MS,
      });
      this.lastAnswerAt = this.now();
      return result.rows as Row[];
    } catch (error) {
      this.lose(session, `a statement failed: ${messageOf(error)}`);
      throw error;
    }
  }

  /** Connects, listens and self-tests one new session; on failure, tries again later. Never rejects. */
  private async open(): Promise<void> {
    if (this.stopped) return;
    let session: FeedClient;
    try {
      session = this.newClient();
    } catch (error) {
      this.logger.warn(`No change feed: ${messageOf(error)}`);
      return;
    }
    this.session = session;
    session.on('error', (error: Error) => this.lose(session, messageOf(error)));
    session.on('end', () => this.lose(session, 'the connection ended'));
    session.on('notification', (notice: Notification) => this.receive(session, notice));
    try {
      await session.connect();
      await session.query({ text: `LISTEN ${CHANGE_CHANNEL}`, query_timeout: FEED_QUERY_TIMEOUT_MS });
      if (!(await this.selfTest(session))) {
        this.fail(
          session,
          `LISTEN/NOTIFY is not delivered on ${this.where} (a transaction pooler in front?): the catalog state and the API keys are polled; set DATABASE_DIRECT_URL to a direct PostgreSQL URL for the change feed`,
          { retryAfterMs: FEED_RETRY_MAX_MS },
        );
        return;
      }
    } catch (error) {
      this.fail(session, `could not listen on ${this.where}: ${messageOf(error)}`);
      return;
    }
    if (this.session !== session || this.stopped) return;
    this.failures = 0;
    this.lastAnswerAt = this.now();
    this.isLive = true;
    this.logger.log(`Listening for catalog and key changes on ${this.where}`);
    this.emit((listener) => listener.liveChanged?.(true));
  }

  /**
   * The wait counts from when the notice was sent, so a send slowed by a busy pool is not taken
   * for a pooler that drops notices (which would wait FEED_RETRY_MAX_MS).
   */
  private async selfTest(session: FeedClient): Promise<boolean> {
    const token = `self-test ${randomUUID()}`;
    let timer: NodeJS.Timeout | undefined;
    let settle!: (heard: boolean) => void;
    const heard = new Promise<boolean>((resolve) => (settle = resolve));
    this.awaitedToken = { token, heard: () => settle(true) };
    try {
      await this.sender.query('SELECT pg_notify($1, $2)', [CHANGE_CHANNEL, token]);
      timer = setTimeout(() => settle(false), FEED_SELF_TEST_MS);
      return (await heard) && this.session === session;
    } finally {
      clearTimeout(timer);
      this.awaitedToken = null;
    }
  }

  private receive(session: FeedClient, notice: Notification): void {
    if (session !== this.session) return;
    const payload = notice.payload ?? '';
    if (this.awaitedToken?.token === payload) this.awaitedToken.heard();
    if (!this.isLive || !TOPICS.has(payload)) return;
    this.emit((listener) => listener.changed?.(payload as ChangeTopic));
  }

  private pingIfIdle(): void {
    if (!this.isLive || this.now() - this.lastAnswerAt < FEED_IDLE_PING_MS) return;
    this.query('SELECT 1').catch(() => undefined);
  }

  /** The live session failed: consumers go back to polling at once, and it reconnects. */
  private lose(session: FeedClient, reason: string): void {
    if (session !== this.session) return;
    const wasLive = this.isLive;
    this.isLive = false;
    if (wasLive) {
      this.logger.warn(`The change feed is lost (${reason}): polling until it reconnects`);
      this.emit((listener) => listener.liveChanged?.(false));
    }
    this.fail(session, reason, { logged: wasLive });
  }

  /** Drops the session and schedules the next attempt; the first failure in a row is logged. */
  private fail(
    session: FeedClient,
    reason: string,
    { logged = false, retryAfterMs = 0 }: { logged?: boolean; retryAfterMs?: number } = {},
  ): void {
    if (session !== this.session) return;
    this.session = null;
    void session.end().catch(() => undefined);
    if (this.stopped) return;
    if (this.failures === 0 && !logged) this.logger.warn(`No change feed: ${reason}`);
    else this.logger.debug(`Change feed attempt failed: ${reason}`);
    const delay = Math.max(retryAfterMs, Math.min(FEED_RETRY_MAX_MS, FEED_RETRY_MIN_MS * 2 ** this.failures));
    this.failures++;
    this.retryTimer = setTimeout(() => void this.open(), delay).unref();
  }

  private emit(call: (listener: ChangeListener) => void): void {
    for (const listener of this.listeners) {
      try {
        call(listener);
      } catch (error) {
        this.logger.error({ err: error }, 'A change listener failed');
      }
    }
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
