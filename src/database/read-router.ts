import { Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { SqlExecutor } from './database';
import { PrimaryWalHistory, parseLsn } from './replication-lag';

/** The two kinds of catalog read, each with its own pools: titles, lists and the state; searches. */
export type ReadRole = 'catalog' | 'search';

/** A server that can answer catalog reads: the primary, or a streaming replica (DATABASE_READ_URL). */
export interface ReadServer {
  /** How logs and metrics name it: `primary`, or a replica's host:port. */
  readonly name: string;
  readonly catalog: SqlExecutor;
  readonly search: SqlExecutor;
  /** Ends its pools (a replica's; the primary's belong to the DatabaseModule). */
  close(): Promise<void>;
  /** A replica's catalog pool (titles, lists, state), for /metrics; the primary's is `db_pool_*`. */
  poolCounts?(): { total: number; waiting: number };
  /**
   * A replica's own connection for the checks (`catalog` when absent): a check then measures the
   * server, not a wait behind the requests' reads for a pooled connection.
   */
  readonly checks?: SqlExecutor;
}

/** What a check found of a replica, for the choice of server and for metrics. */
export interface ReplicaStatus {
  inRotation: boolean;
  /** Why it is left out (null while in rotation). */
  reason: string | null;
  /** How far behind the primary it replays, at least, in ms; null when unknown. */
  lagMs: number | null;
}

/** How often each replica (and the primary's WAL position) is checked. */
export const REPLICA_CHECK_MS = 500;
/**
 * A silent partition is found within REPLICA_CHECK_MS + this (1 s), so hung reads move inside the
 * 2 s of /health and state reads and the 2.5 s of a request's statement.
 */
export const REPLICA_CHECK_TIMEOUT_MS = 500;
/** The primary's WAL position (for the lag) may take longer: its reads do not depend on it. */
const PRIMARY_CHECK_TIMEOUT_MS = 2_000;
/** A replica further behind the primary than this is left out until it catches up. */
export const MAX_REPLICA_LAG_MS = 1_000;

const NOT_CHECKED = 'not checked yet';
const UNREACHABLE = 'unreachable';
const PRIMARY_WAL_SQL = 'SELECT pg_current_wal_lsn()::text AS lsn';
const REPLICA_SQL = 'SELECT pg_is_in_recovery() AS standby, pg_last_wal_replay_lsn()::text AS lsn';

/**
 * Catalog reads go to one server at a time, so the state (the version behind caches and ETags) and
 * the data never come from different servers. Rotation and failover: docs/operations.md, Read replicas.
 */
export class ReadRouter implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('ReadReplicas');
  private readonly history = new PrimaryWalHistory();
  private readonly statuses: Map<ReadServer, ReplicaStatus>;
  private serving: ReadServer;
  private running: Promise<void> | null = null;
  private primaryPosition: Promise<void> | null = null;
  private timer: NodeJS.Timeout | undefined;
  /** Per replica, what its reads in flight wait on beside their answer: it settles when it is found unreachable. */
  private readonly unreachable = new Map<ReadServer, Unreachable>();

  constructor(
    readonly primary: ReadServer,
    readonly replicas: readonly ReadServer[],
    private readonly preferred = Math.floor(Math.random() * replicas.length),
    private readonly now: () => number = Date.now,
  ) {
    this.serving = primary;
    this.statuses = new Map(
      replicas.map((replica) => [replica, { inRotation: false, reason: NOT_CHECKED, lagMs: null }]),
    );
  }

  /** The server reads go to now. */
  get current(): ReadServer {
    return this.serving;
  }

  status(replica: ReadServer): ReplicaStatus {
    return { ...this.statuses.get(replica)! };
  }

  onApplicationBootstrap(): void {
    if (this.replicas.length === 0) return;
    this.timer = setInterval(() => void this.check(), REPLICA_CHECK_MS).unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await Promise.all(this.replicas.map((replica) => replica.close().catch(() => undefined)));
  }

  /** One statement on the server reads go to now (see the class comment for failures). */
  async query<Row>(role: ReadRole, sql: string, params?: readonly unknown[]): Promise<Row[]> {
    const server = this.serving;
    if (server === this.primary) return server[role].query<Row>(sql, params);
    try {
      return await this.unlessUnreachable(server, server[role].query<Row>(sql, params));
    } catch (error) {
      const next = () => (this.serving !== server ? this.serving : this.primary);
      if (error instanceof ReplicaUnreachable) return next()[role].query<Row>(sql, params);
      const failure = replicaFailure(error);
      if (failure === null) throw error;
      if (failure === 'unreachable') this.leaveOut(server, `${UNREACHABLE}: ${messageOf(error)}`);
      return next()[role].query<Row>(sql, params);
    }
  }

  /** The read's answer, or `ReplicaUnreachable` as soon as `replica` is found unreachable. */
  private unlessUnreachable<Row>(replica: ReadServer, read: Promise<Row[]>): Promise<Row[]> {
    let found = this.unreachable.get(replica);
    if (!found) this.unreachable.set(replica, (found = new Unreachable()));
    // An abandoned read still settles later (its own deadline): nothing waits for it then.
    read.catch(() => undefined);
    return Promise.race([read, found.settled]);
  }

  /** Checks every replica once (joining a check under way); the start awaits the first. */
  check(): Promise<void> {
    if (this.replicas.length === 0) return Promise.resolve();
    this.primaryPosition ??= this.readPrimaryPosition().finally(() => (this.primaryPosition = null));
    this.running ??= this.runCheck().finally(() => (this.running = null));
    return this.running;
  }

  /**
   * The primary's WAL position, recorded for the replicas' lag. Apart from the replicas' checks, so
   * a slow primary never delays finding a replica unreachable.
   */
  private async readPrimaryPosition(): Promise<void> {
    try {
      const [row] = await withTimeout(
        this.primary.catalog.query<{ lsn: string }>(PRIMARY_WAL_SQL),
        PRIMARY_CHECK_TIMEOUT_MS,
      );
      this.history.record(parseLsn(row.lsn), this.now());
    } catch {
      // The primary is unreachable (requests fail on their limits anyway): replicas are judged on
      // what they answer themselves, their lag on the positions already recorded.
    }
  }

  private async runCheck(): Promise<void> {
    await Promise.all(this.replicas.map((replica) => this.checkReplica(replica)));
    this.choose();
  }

  private async checkReplica(replica: ReadServer): Promise<void> {
    const sentAt = this.now();
    let row: { standby: boolean; lsn: string | null };
    try {
      [row] = await withTimeout(
        (replica.checks ?? replica.catalog).query(REPLICA_SQL),
        REPLICA_CHECK_TIMEOUT_MS,
      );
    } catch (error) {
      this.judge(replica, `${UNREACHABLE}: ${messageOf(error)}`, null);
      return;
    }
    if (!row.standby) {
      this.judge(replica, 'not a standby (pg_is_in_recovery() is false)', null);
      return;
    }
    if (row.lsn === null) {
      this.judge(replica, 'has replayed nothing yet', null);
      return;
    }
    const lagMs = this.history.lagMs(parseLsn(row.lsn), sentAt);
    const behind = lagMs > MAX_REPLICA_LAG_MS;
    this.judge(replica, behind ? `over ${(lagMs / 1000).toFixed(1)} s behind the primary` : null, lagMs);
  }

  private leaveOut(replica: ReadServer, reason: string): void {
    this.judge(replica, reason, null);
    this.choose();
  }

  private judge(replica: ReadServer, reason: string | null, lagMs: number | null): void {
    const status = this.statuses.get(replica)!;
    const inRotation = reason === null;

    if (inRotation !== status.inRotation || status.reason === NOT_CHECKED) {
      if (inRotation) this.logger.log(`Read replica ${replica.name} is in rotation`);
      else this.logger.warn(`Read replica ${replica.name} is left out: ${reason}`);
    }
    Object.assign(status, { inRotation, reason, lagMs });
    if (reason?.startsWith(UNREACHABLE)) {
      // Another server is chosen first: the reads abandoned on this one are sent there.
      this.choose();
      this.unreachable.get(replica)?.settle();
      this.unreachable.delete(replica);
    }
  }

  /** The preferred replica when in rotation, else the next one in rotation, else the primary. */
  private choose(): void {
    const count = this.replicas.length;
    let chosen = this.primary;
    for (let i = 0; i < count; i++) {
      const replica = this.replicas[(this.preferred + i) % count];
      if (this.statuses.get(replica)!.inRotation) {
        chosen = replica;
        break;
      }
    }
    if (chosen === this.serving) return;
    this.serving = chosen;
    this.logger.log(`Catalog reads now go to ${chosen === this.primary ? 'the primary' : chosen.name}`);
  }
}

/** A read abandoned on a replica found unreachable while it waited: it is sent to the next server. */
class ReplicaUnreachable extends Error {}

/** Settles (rejecting with `ReplicaUnreachable`) once, when its replica is found unreachable. */
class Unreachable {
  readonly settled: Promise<never>;
  settle!: () => void;

  constructor() {
    this.settled = new Promise<never>((_, reject) => {
      this.settle = () => reject(new ReplicaUnreachable('the read replica was found unreachable'));
    });
    // Rejected with no read waiting on it: nothing to report.
    this.settled.catch(() => undefined);
  }
}

/** SQLSTATEs of a server that is going away or cannot take the connection. */
const UNREACHABLE_STATES = new Set(['57P01', '57P02', '57P03', '53300']);
const UNREACHABLE_ERRNOS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);
/** pg's own words for a connection that failed, timed out or died, and for its client-side deadline. */
const UNREACHABLE_MESSAGE =
  /Connection terminated|timeout exceeded when trying to connect|Query read timeout|not queryable|connection error/i;

/**
 * 'unreachable' (left out) or 'conflict' (recovery conflict 40001/40P01, lock wait 55P03): another
 * server may answer. Null otherwise: the primary would fail the same way.
 */
export function replicaFailure(error: unknown): 'unreachable' | 'conflict' | null {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string') {
    if (code.startsWith('08') || UNREACHABLE_STATES.has(code) || UNREACHABLE_ERRNOS.has(code)) {
      return 'unreachable';
    }
    if ((code === '40001' || code === '40P01') && /recovery/i.test(String(message))) return 'conflict';
    if (code === '55P03') return 'conflict';
  }
  return typeof message === 'string' && UNREACHABLE_MESSAGE.test(message) ? 'unreachable' : null;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
