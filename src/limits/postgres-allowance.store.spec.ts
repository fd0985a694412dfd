import type { Database } from '../database/database';
import { PostgresAllowanceStore } from './postgres-allowance.store';

/** A database that records each statement and answers a reservation's row. */
function recordingDatabase() {
  const statements: string[] = [];
  const db = {
    query: jest.fn(async (sql: string) => {
      statements.push(sql.replace(/\s+/g, ' ').trim());
      return [{ granted: 1, total: 1, window: '2026-12-01 00:00:00+00', msLeft: 1_000 }];
    }),
  };
  return { db: db as unknown as Database, statements };
}

describe('PostgresAllowanceStore', () => {
  it("stamps the UTC day of a key's last use on the statements that write its row anyway", async () => {
    const { db, statements } = recordingDatabase();
    const store = new PostgresAllowanceStore(db, { table: 'quota_counters', lastUse: true });
    const reservation = await store.reserve('month:k1', 1, 10, 60_000);
    await reservation.release(1);
    expect(statements).toHaveLength(2);
    const today = `(now() AT TIME ZONE 'UTC')::date`;
    expect(statements[0]).toMatch(
      /^INSERT INTO quota_counters AS c \(key, reserved, last_grant, expires_at, last_used_on\)/,
    );
    expect(statements[0]).toContain(`interval '1 millisecond', ${today})`);
    expect(statements[0]).toContain(`last_used_on = ${today} RETURNING`);
    expect(statements[1]).toMatch(/^UPDATE quota_counters SET reserved = .*, last_used_on = /);
    // Reading a window writes nothing.
    await store.peek('month:k1');
    expect(statements[2]).toMatch(/^SELECT /);
  });

  it('leaves a table without the column alone (the minute, a team’s own limits)', async () => {
    const { db, statements } = recordingDatabase();
    const store = new PostgresAllowanceStore(db, { table: 'rate_counters' });
    await (await store.reserve('minute:k1', 1, 10, 60_000)).release(1);
    expect(statements.join('\n')).not.toContain('last_used_on');
  });
});
