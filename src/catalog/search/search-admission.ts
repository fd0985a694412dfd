import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { type EventLoopUtilization, performance } from 'node:perf_hooks';
import { SearchDatabase } from '../../database/search-database';
import { type SearchDone, SearchShare } from './search-share';

/** The window over which the process's load is measured. */
export const LOAD_WINDOW_MS = 100;
/** At most one warning per this long counts the searches refused under overload. */
export const REFUSAL_LOG_INTERVAL_MS = 10_000;

/**
 * Feeds `SearchShare` with this process's load: the requests its HTTP server received and its
 * event-loop utilization, every LOAD_WINDOW_MS. Searches run at most as many at once as the search
 * database runs statements. Refusals are logged as one warning with their count, at most every
 * REFUSAL_LOG_INTERVAL_MS.
 */
@Injectable()
export class SearchAdmission implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('SearchAdmission');
  private readonly share: SearchShare;
  private lastRefusalLog = 0;
  private requests = 0;
  private since: EventLoopUtilization = performance.eventLoopUtilization();
  private timer: NodeJS.Timeout | undefined;
  private readonly countRequest = () => {
    this.requests++;
  };

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    searchDatabase: SearchDatabase,
  ) {
    this.share = new SearchShare({ concurrency: searchDatabase.concurrency, windowMs: LOAD_WINDOW_MS });
  }

  onApplicationBootstrap(): void {
    this.adapterHost.httpAdapter?.getHttpServer()?.on('request', this.countRequest);
    this.timer = setInterval(() => this.endWindow(), LOAD_WINDOW_MS).unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
    this.adapterHost.httpAdapter?.getHttpServer()?.off('request', this.countRequest);
  }

  get concurrencyLimit(): number {
    return this.share.concurrencyLimit;
  }

  get running(): number {
    return this.share.runningCount;
  }

  get waiting(): number {
    return this.share.waitingCount;
  }

  /** Resolves when a search may start, to what to call when it has finished (see `SearchShare`). */
  admit(): Promise<SearchDone> | SearchDone {
    return this.share.admit();
  }

  private endWindow(): void {
    const now = performance.eventLoopUtilization();
    const { utilization } = performance.eventLoopUtilization(now, this.since);
    this.since = now;
    this.share.endWindow({ utilization, requests: this.requests });
    this.requests = 0;
    const at = Date.now();
    if (at - this.lastRefusalLog >= REFUSAL_LOG_INTERVAL_MS) {
      const refused = this.share.takeRefusedCount();
      if (refused > 0) {
        this.lastRefusalLog = at;
        this.logger.warn({ refused }, 'Searches refused under overload (500 with Retry-After)');
      }
    }
  }
}
