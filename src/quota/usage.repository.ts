import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';

export interface RequestUsage {
  /** Requests of the key in the current calendar minute, this one included. */
  minuteHits: number;
  /** Quota used this UTC month after counting this request; null when the quota refused it. */
  quotaUsed: number | null;
  /** The database clock, shared by every replica. */
  now: Date;
}

/**
 * Both limits in one statement and one round trip: count the minute window, and only for a request
 * within it, count the month if it is under quota. Row locks taken by ON CONFLICT DO UPDATE make
 * both counts exact across replicas; the quota's WHERE sees the latest committed count.
 */
const RECORD_REQUEST_SQL = `
  WITH clock AS (SELECT now() AS now),
  minute AS (
    INSERT INTO rate_limit_windows AS w (key_id, window_start, hits)
    SELECT $1, date_trunc('minute', clock.now), 1 FROM clock
    ON CONFLICT (key_id, window_start) DO UPDATE SET hits = w.hits + 1
    RETURNING hits
  ),
  quota AS (
    INSERT INTO quota_usage AS q (key_id, month, used)
    SELECT $1, date_trunc('month', clock.now AT TIME ZONE 'UTC')::date, 1 FROM clock, minute
    WHERE minute.hits <= $2
    ON CONFLICT (key_id, month) DO UPDATE SET used = q.used + 1 WHERE q.used < $3
    RETURNING used
  )
  SELECT minute.hits AS "minuteHits", (SELECT used FROM quota)::float8 AS "quotaUsed", clock.now AS now
  FROM minute, clock`;

/** The quota half alone, for when the minute is counted elsewhere (Redis). */
const RECORD_QUOTA_SQL = `
  WITH clock AS (SELECT now() AS now),
  quota AS (
    INSERT INTO quota_usage AS q (key_id, month, used)
    SELECT $1, date_trunc('month', clock.now AT TIME ZONE 'UTC')::date, 1 FROM clock
    ON CONFLICT (key_id, month) DO UPDATE SET used = q.used + 1 WHERE q.used < $2
    RETURNING used
  )
  SELECT (SELECT used FROM quota)::float8 AS "quotaUsed", clock.now AS now FROM clock`;

@Injectable()
export class UsageRepository {
  constructor(private readonly db: Database) {}

  async recordRequest(keyId: string, rpm: number, monthlyQuota: number): Promise<RequestUsage> {
    const [usage] = await this.db.query<RequestUsage>(RECORD_REQUEST_SQL, [keyId, rpm, monthlyQuota]);
    return usage;
  }

  async recordQuotaUse(keyId: string, monthlyQuota: number): Promise<Omit<RequestUsage, 'minuteHits'>> {
    const [usage] = await this.db.query<Omit<RequestUsage, 'minuteHits'>>(RECORD_QUOTA_SQL, [
      keyId,
      monthlyQuota,
    ]);
    return usage;
  }

  /** Minute windows older than the current and the previous minute are dead weight. */
  async deleteExpiredWindows(): Promise<void> {
    await this.db.query(`DELETE FROM rate_limit_windows WHERE window_start < now() - interval '2 minutes'`);
  }
}
