import type { Database } from '../database/database';
import type { AllowanceStore, CarriedWindow, Reservation, WindowState } from './allowance-store';

/**
 * A counter table of the limit table's `counters` (one row per counter key); `lastUse`: it has a
 * `last_used_on` column, which every reservation and return sets to the UTC day.
 */
interface CounterTable {
  table: string;
  lastUse?: boolean;
}

/** The UTC day on the database clock (a date column's value). */
const TODAY_UTC = `(now() AT TIME ZONE 'UTC')::date`;

/**
 * One atomic upsert on the database clock: restart an ended window, grant min(want, limit − reserved);
 * SET reads the old row, so `last_grant` is this call's. A carried window ($5, $6) counts at least $5.
 * A table that records the last use has it set to today by the same statement.
 */
const reserveSql = ({ table, lastUse }: CounterTable) => {
  const base = `CASE WHEN c.expires_at <= now() THEN $5::bigint ELSE GREATEST(c.reserved, $5::bigint) END`;
  const grant = (from: string) => `GREATEST(0, LEAST($2::bigint, $3::bigint - ${from}))`;
  // The last use rides on the write: one more column of the row the statement writes anyway.
  const [useColumn, useValue, useSet] = lastUse
    ? [', last_used_on', `, ${TODAY_UTC}`, `, last_used_on = ${TODAY_UTC}`]
    : ['', '', ''];
  return `
  INSERT INTO ${table} AS c (key, reserved, last_grant, expires_at${useColumn})
  VALUES ($1, $5::bigint + ${grant('$5::bigint')}, ${grant('$5::bigint')},
          now() + (CASE WHEN $6::float8 > 0 THEN $6::float8 ELSE $4::float8 END) * interval '1 millisecond'${useValue})
  ON CONFLICT (key) DO UPDATE SET
    reserved = ${base} + ${grant(base)},
    last_grant = ${grant(base)},
    expires_at = CASE WHEN c.expires_at <= now() THEN excluded.expires_at ELSE c.expires_at END${useSet}
  RETURNING last_grant::float8 AS granted, reserved::float8 AS total, expires_at::text AS window,
            (extract(epoch FROM expires_at - now()) * 1000)::float8 AS "msLeft"`;
};

/**
 * Returns allowance to the window it came from; a window that has ended or restarted is left alone.
 * Allowance goes back about 1 s after its replica's last request for the key (or at shutdown), so
 * the day it is returned is the day of that request, but for a second or two around midnight.
 */
const releaseSql = ({ table, lastUse }: CounterTable) => {
  const useSet = lastUse ? `, last_used_on = ${TODAY_UTC}` : '';
  return `
  UPDATE ${table} SET reserved = GREATEST(0, reserved - $2::bigint)${useSet}
  WHERE key = $1 AND expires_at = $3::timestamptz AND expires_at > now()`;
};

const peekSql = ({ table }: CounterTable) => `
  SELECT reserved::float8 AS total, expires_at::text AS window,
         (extract(epoch FROM expires_at - now()) * 1000)::float8 AS "msLeft"
  FROM ${table} WHERE key = $1 AND expires_at > now()`;

type ReservationRow = Omit<Reservation, 'release'>;

export class PostgresAllowanceStore implements AllowanceStore {
  private readonly reserveStatement: string;
  private readonly releaseStatement: string;
  private readonly peekStatement: string;

  constructor(
    private readonly db: Database,
    table: CounterTable,
  ) {
    this.reserveStatement = reserveSql(table);
    this.releaseStatement = releaseSql(table);
    this.peekStatement = peekSql(table);
  }

  async reserve(
    key: string,
    want: number,
    limit: number,
    ttlMs: number,
    carried?: CarriedWindow,
  ): Promise<Reservation> {
    const [row] = await this.db.query<ReservationRow>(this.reserveStatement, [
      key,
      want,
      limit,
      ttlMs,
      carried?.total ?? 0,
      carried?.msLeft ?? 0,
    ]);
    return {
      ...row,
      release: async (amount) => {
        await this.db.query(this.releaseStatement, [key, amount, row.window]);
      },
    };
  }

  async peek(key: string): Promise<WindowState | null> {
    const [row] = await this.db.query<WindowState>(this.peekStatement, [key]);
    return row ?? null;
  }

  async close(): Promise<void> {
    // The database connection belongs to the DatabaseModule.
  }
}
