import { Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { type EventLoopUtilization, performance } from 'node:perf_hooks';
import { SearchShare } from './search-share';

/** The window over which the process's load is measured. */
export const LOAD_WINDOW_MS = 100;

/**
 * Feeds `SearchShare` with this process's load: the requests its HTTP server received and its
 * event-loop utilization, every LOAD_WINDOW_MS.
 */
@Injectable()
export class SearchAdmission implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly share = new SearchShare();
  private requests = 0;
  private since: EventLoopUtilization = performance.eventLoopUtilization();
  private timer: NodeJS.Timeout | undefined;
  private readonly countRequest = () => {
    this.requests++;
  };

  constructor(private readonly adapterHost: HttpAdapterHost) {}

  onApplicationBootstrap(): void {
    this.adapterHost.httpAdapter?.getHttpServer()?.on('request', this.countRequest);
    this.timer = setInterval(() => this.endWindow(), LOAD_WINDOW_MS).unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
    this.adapterHost.httpAdapter?.getHttpServer()?.off('request', this.countRequest);
  }

  /** Resolves when a search may start (see `SearchShare`). */
  admit(): Promise<void> | void {
    return this.share.admit();
  }

  private endWindow(): void {
    const now = performance.eventLoopUtilization();
    const { utilization } = performance.eventLoopUtilization(now, this.since);
    this.since = now;
    this.share.endWindow({ utilization, requests: this.requests });
    this.requests = 0;
  }
}
