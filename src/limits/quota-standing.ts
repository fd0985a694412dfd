import { LIMITS, type LimitRow, counterKey } from './limit-table';

/** Runs one statement and returns its rows (a TypeORM manager's or the `Database` gateway's query). */
export type Query = (sql: string, params?: unknown[]) => Promise<unknown[]>;

/**
 * The monthly quota's row of the limit table: the counters `keys:list` and the quota gauges read.
 * The month is never counted in Redis (its row says so), so they read PostgreSQL's table alone.
 */
export const MONTH_ROW: LimitRow = LIMITS.find((row) => row.name === 'month')!;

/** "month:", the prefix of every monthly counter's key (a constant of ours, safe in a SQL literal). */
const PREFIX = counterKey(MONTH_ROW.name, '');

/** A key's month as `keys:list` shows it. */
export interface MonthStanding {
  /** Counted in this UTC month's window (0 when none is open): what the replicas reserved. */
  used: number;
  /** The UTC day (YYYY-MM-DD) of the key's last use; null before any since it began to be recorded. */
  lastUsedOn: string | null;
}

/**
 * One statement: each key's count in the month's open window and its last use. A window is open
 * until the next UTC month starts, so an open one is this month's; a row left from an earlier month
 * counts 0 here, as the next request will restart it.
 */
const STANDINGS_SQL = `
  SELECT substr(key, ${PREFIX.length + 1}) AS id,
         (CASE WHEN expires_at > now() THEN reserved ELSE 0 END)::float8 AS used,
         to_char(last_used_on, 'YYYY-MM-DD') AS "lastUsedOn"
  FROM ${MONTH_ROW.counters.table}
  WHERE key LIKE '${PREFIX}%'`;

/** Every key's month by key id; a key with no counter row has used nothing and was never used. */
export async function monthStandings(query: Query): Promise<Map<string, MonthStanding>> {
  const rows = (await query(STANDINGS_SQL)) as Array<{ id: string } & MonthStanding>;
  return new Map(rows.map(({ id, used, lastUsedOn }) => [id, { used: Number(used), lastUsedOn }]));
}

/** How many usable keys have used at least 80% and at least 100% of their monthly quota this month. */
export interface QuotaCounts {
  nearlyUsed: number;
  usedUp: number;
}

/**
 * One statement for the gauges: usable keys (enabled, not expired) whose count in this month's
 * window is at least 80% (in integers: 5 × used ≥ 4 × quota) and at least 100% of their quota.
 */
const COUNTS_SQL = `
  SELECT count(*) FILTER (WHERE c.reserved * 5 >= k.monthly_quota * 4)::int AS "nearlyUsed",
         count(*) FILTER (WHERE c.reserved >= k.monthly_quota)::int AS "usedUp"
  FROM api_keys k
  JOIN ${MONTH_ROW.counters.table} c ON c.key = '${PREFIX}' || k.id::text
  WHERE c.expires_at > now() AND NOT k.disabled AND (k.expires_at IS NULL OR k.expires_at > now())`;

export async function quotaCounts(query: Query): Promise<QuotaCounts> {
  const [row] = (await query(COUNTS_SQL)) as QuotaCounts[];
  return { nearlyUsed: Number(row.nearlyUsed), usedUp: Number(row.usedUp) };
}
