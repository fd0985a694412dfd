import { ChangeFeed, type ChangeListener, type ChangeTopic } from '../../src/database/change-feed';

/**
 * A change feed the unit test drives: it is live when told, passes on the notices it is given, and
 * answers statements on "its session" through `session` (a jest mock the test sets up).
 */
export class FakeChangeFeed extends ChangeFeed {
  readonly enabled = true;
  live = false;
  readonly session = jest.fn<Promise<unknown[]>, [string, readonly unknown[] | undefined]>();
  private readonly listeners = new Set<ChangeListener>();

  subscribe(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  query<Row>(sql: string, params?: readonly unknown[]): Promise<Row[]> {
    return this.session(sql, params) as Promise<Row[]>;
  }

  setLive(live: boolean): void {
    this.live = live;
    for (const listener of this.listeners) listener.liveChanged?.(live);
  }

  notice(topic: ChangeTopic): void {
    for (const listener of this.listeners) listener.changed?.(topic);
  }
}
