import { Injectable } from '@nestjs/common';
import { Gauge, Registry } from 'prom-client';
import { ReadRouter } from '../database/read-router';

/**
 * Which server serves the catalog's reads, and each read replica's standing (DATABASE_READ_URL), read
 * at scrape time. Nothing is reported without replicas: the primary then serves every read.
 */
@Injectable()
export class ReadTargetMetrics {
  constructor(registry: Registry, router: ReadRouter) {
    if (router.replicas.length === 0) return;
    const servers = [router.primary, ...router.replicas];
    new Gauge({
      name: 'db_read_target_serving',
      help: 'Whether this server serves the catalog reads now (1) or not (0): the primary or a read replica',
      labelNames: ['target'],
      registers: [registry],
      collect() {
        for (const server of servers) this.set({ target: server.name }, server === router.current ? 1 : 0);
      },
    });
    new Gauge({
      name: 'db_read_target_up',
      help: 'Whether a read replica is in rotation (1) or left out (0): unreachable, not a standby, or lagging',
      labelNames: ['target'],
      registers: [registry],
      collect() {
        for (const replica of router.replicas) {
          this.set({ target: replica.name }, router.status(replica).inRotation ? 1 : 0);
        }
      },
    });
    new Gauge({
      name: 'db_read_target_lag_seconds',
      help: 'How far behind the primary a read replica replays, at least, at its last check (NaN: unknown)',
      labelNames: ['target'],
      registers: [registry],
      collect() {
        for (const replica of router.replicas) {
          const { lagMs } = router.status(replica);
          this.set({ target: replica.name }, lagMs === null ? Number.NaN : lagMs / 1000);
        }
      },
    });
    const replicaPool = (
      name: string,
      help: string,
      read: (counts: { total: number; waiting: number }) => number,
    ) =>
      new Gauge({
        name,
        help,
        labelNames: ['target'],
        registers: [registry],
        collect() {
          for (const replica of router.replicas) {
            if (replica.poolCounts) this.set({ target: replica.name }, read(replica.poolCounts()));
          }
        },
      });
    replicaPool(
      'db_read_target_pool_connections',
      "Open connections in a read replica's catalog pool (titles, lists, state; DATABASE_POOL_SIZE)",
      (counts) => counts.total,
    );
    replicaPool(
      'db_read_target_pool_waiting_requests',
      "Catalog reads waiting for a connection of a read replica's pool",
      (counts) => counts.waiting,
    );
  }
}
