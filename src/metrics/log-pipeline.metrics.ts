import { Injectable } from '@nestjs/common';
import { Counter, Registry } from 'prom-client';
import { droppedLogLines } from '../common/logging/stdout-log';

/** Log lines the process dropped because stdout was not taking them (its log buffer was full), read at scrape time. */
@Injectable()
export class LogPipelineMetrics {
  constructor(registry: Registry) {
    new Counter({
      name: 'log_lines_dropped_total',
      help: 'Log lines dropped because the log buffer (8 MB) was full: stdout was not taking lines',
      registers: [registry],
      collect() {
        this.reset();
        this.inc(droppedLogLines());
      },
    });
  }
}
