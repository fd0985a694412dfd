import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { DrainState } from '../server/drain-state';
import type { FromHealthWorker, HealthWorkerData, ToHealthWorker } from './health-port.protocol';
import { HEALTH_PATH } from './health-port.protocol';
import { HealthService } from './health.service';
import {
  HEARTBEAT_MS,
  type HealthReading,
  Phase,
  READING_EVERY_MS,
  SHARED,
  newSharedState,
} from './probe-state';

export { HEALTH_PATH };

/**
 * The worker's file beside this one: `.js` in dist; `.ts` when this module runs from source (the
 * tests), where the thread compiles it as ts-node does (a development dependency).
 */
const WORKER_FILE = join(__dirname, `health-port.worker${__filename.endsWith('.ts') ? '.ts' : '.js'}`);
const WORKER_EXEC_ARGV = __filename.endsWith('.ts') ? ['--require', 'ts-node/register/transpile-only'] : [];
/** A thread that ended on its own is started again after this long (the port is down meanwhile). */
const RESTART_AFTER_MS = 1_000;

/**
 * GET /health on HEALTH_PORT, answered by a thread with its own event loop (`health-port.worker.ts`),
 * so a saturated main loop delays no probe. This side keeps the thread's state current: the phase
 * (ready only once the API port listens, or traffic would be routed to a closed port; 500 from the
 * drain's start), a reading of the catalog every READING_EVERY_MS, and a heartbeat every HEARTBEAT_MS
 * whose silence tells the thread that this loop is stuck (docs/operations.md, Probes).
 */
@Injectable()
export class HealthServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Health');
  private readonly shared = newSharedState();
  private worker: Worker | undefined;
  private beat: NodeJS.Timeout | undefined;
  private restart: NodeJS.Timeout | undefined;
  private stopping = false;
  private reading: HealthReading | undefined;
  private readingRuns = false;
  private lastFailure: string | undefined;

  constructor(
    private readonly health: HealthService,
    private readonly adapterHost: HttpAdapterHost,
    private readonly drain: DrainState,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const port = this.config.healthPort;
    if (port === null) return;
    this.health.countAnswersOf(() => ({
      ok: Atomics.load(this.shared, SHARED.answeredOk),
      failed: Atomics.load(this.shared, SHARED.answeredFailed),
    }));
    this.watchPhase();
    let beats = 0;
    this.beat = setInterval(() => {
      Atomics.add(this.shared, SHARED.heartbeat, 1);
      if (++beats % Math.round(READING_EVERY_MS / HEARTBEAT_MS) === 0) this.readCatalog();
    }, HEARTBEAT_MS);
    this.beat.unref();
    this.readCatalog();
    await this.startWorker(port);
    this.logger.log(`Health probes on http://${this.config.host}:${port}${HEALTH_PATH}`);
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopping = true;
    clearInterval(this.beat);
    clearTimeout(this.restart);
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }

  /** The API port's listening and the drain, written where the thread reads them at each probe. */
  private watchPhase(): void {
    const api = this.adapterHost.httpAdapter?.getHttpServer() as Server | undefined;
    const setPhase = (phase: Phase) => Atomics.store(this.shared, SHARED.phase, phase);
    if (api?.listening) setPhase(Phase.Serving);
    api?.on('listening', () => {
      if (!this.drain.draining) setPhase(Phase.Serving);
      this.readCatalog();
    });
    this.drain.whenStarted(() => setPhase(Phase.Draining));
  }

  /** One catalog reading at a time; the thread gets each, and the log each change of its outcome. */
  private readCatalog(): void {
    if (this.readingRuns) return;
    this.readingRuns = true;
    void this.health
      .reading()
      .then(({ cause, ...reading }) => {
        this.noteOutcome(reading, cause);
        this.reading = reading;
        this.send({ type: 'reading', reading });
      })
      .finally(() => (this.readingRuns = false));
  }

  /** A failing catalog query is logged when it starts failing and when it answers again, not per reading. */
  private noteOutcome(reading: HealthReading, cause: unknown): void {
    if (!reading.ok && this.lastFailure === undefined) {
      this.logger.warn({ err: cause }, 'The catalog query failed; HEALTH_PORT answers 500 until it answers');
    } else if (reading.ok && this.lastFailure !== undefined) {
      this.logger.log('The catalog query answers again; HEALTH_PORT answers 200');
    }
    this.lastFailure = reading.ok ? undefined : reading.message;
  }

  private send(message: ToHealthWorker): void {
    this.worker?.postMessage(message);
  }

  /** Resolves once the thread listens; rejects with the listen error (EADDRINUSE, EACCES). */
  private startWorker(port: number): Promise<void> {
    const data: HealthWorkerData = { port, host: this.config.host, shared: this.shared };
    const worker = new Worker(WORKER_FILE, { workerData: data, execArgv: WORKER_EXEC_ARGV });
    this.worker = worker;
    if (this.reading) this.send({ type: 'reading', reading: this.reading });
    return new Promise<void>((resolve, reject) => {
      let listening = false;
      worker.on('message', (message: FromHealthWorker) => {
        if (message.type === 'debug') this.logger.debug(message.message);
        else if (message.type === 'listening') {
          listening = true;
          // Nothing in the thread keeps the process alive: only the main thread's own work does.
          worker.unref();
          resolve();
        } else if (message.type === 'listen-failed') {
          void worker.terminate();
          reject(Object.assign(new Error(message.error.message), message.error, { port }));
        }
      });
      worker.on('error', (error) => {
        if (!listening) reject(error);
        else this.logger.error({ err: error }, "HEALTH_PORT's thread failed");
      });
      worker.on('exit', (code) => {
        if (this.worker !== worker) return;
        this.worker = undefined;
        if (!listening) {
          reject(new Error(`HEALTH_PORT's thread stopped (exit code ${code}) before it listened`));
          return;
        }
        if (this.stopping) return;
        this.logger.error(`HEALTH_PORT's thread stopped (exit code ${code}); starting it again`);
        this.restart = setTimeout(() => {
          this.startWorker(port).catch((error: unknown) =>
            this.logger.error({ err: error }, "HEALTH_PORT's thread could not start again"),
          );
        }, RESTART_AFTER_MS);
        this.restart.unref();
      });
    });
  }
}
