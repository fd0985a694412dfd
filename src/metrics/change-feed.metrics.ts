import { Injectable } from '@nestjs/common';
import { Gauge, Registry } from 'prom-client';
import { ChangeFeed } from '../database/change-feed';

/**
 * Whether the change feed is live, read at scrape time. Reported only where the process holds one
 * (PostgreSQL without read replicas): elsewhere it polls by design, and a 0 would read as a fault.
 */
@Injectable()
export class ChangeFeedMetrics {
  constructor(registry: Registry, feed: ChangeFeed) {
    if (!feed.enabled) return;
    new Gauge({
      name: 'db_change_feed_live',
      help: 'Whether catalog and key changes are pushed to this process (1) or polled for while the feed is down (0)',
      registers: [registry],
      collect() {
        this.set(feed.live ? 1 : 0);
      },
    });
  }
}
