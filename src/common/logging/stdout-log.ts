import { type Logger, pino } from 'pino';

const MB = 1024 * 1024;
/**
 * Bytes of log lines held for stdout while its reader (a log agent, the container runtime) does not
 * take them; a line that would pass it is dropped and counted. docs/operations.md, Log pipeline.
 */
export const LOG_BUFFER_BYTES = 8 * MB;

/** pino's own asynchronous stdout destination (sonic-boom), flushed synchronously at exit by pino. */
export type Destination = ReturnType<typeof pino.destination>;

/**
 * Stdout as the logger writes it: at most `LOG_BUFFER_BYTES` waiting (sonic-boom's `maxLength`, which
 * refuses a whole write past it and emits `drop`). The lines dropped are counted
 * (`log_lines_dropped_total`) and, once everything held has been written (`drain`), one warning
 * through the logger says how many.
 */
export class StdoutLog {
  /** Lines dropped since the process started. */
  droppedLines = 0;
  private unreported = 0;
  private reporter: Logger | undefined;

  constructor(
    readonly destination: Destination,
    private readonly budgetBytes: number,
  ) {
    destination.on('drop', () => {
      this.droppedLines++;
      this.unreported++;
    });
    destination.on('drain', () => this.reportDrops());
  }

  /** The logger that writes the drop report (the latest one made to write into this destination). */
  reportThrough(logger: Logger): void {
    this.reporter = logger;
  }

  private reportDrops(): void {
    const reporter = this.reporter;
    if (this.unreported === 0 || reporter === undefined) return;
    const dropped = this.unreported;
    this.unreported = 0;
    const level = reporter.isLevelEnabled('warn') ? 'warn' : 'error';
    reporter[level](
      { dropped_lines: dropped },
      `${dropped} log lines dropped: the log buffer (${budget(this.budgetBytes)}) was full, stdout was not taking lines`,
    );
  }
}

const budget = (bytes: number) => (bytes % MB === 0 ? `${bytes / MB} MB` : `${bytes} bytes`);

let stdout: StdoutLog | undefined;

/** The process's one stdout destination (every logger of the process shares the one pipe). */
export function stdoutLog(): StdoutLog {
  stdout ??= new StdoutLog(
    pino.destination({ dest: 1, sync: false, maxLength: LOG_BUFFER_BYTES }),
    LOG_BUFFER_BYTES,
  );
  return stdout;
}

/** Lines dropped since the process started; 0 before any logger exists. */
export function droppedLogLines(): number {
  return stdout?.droppedLines ?? 0;
}
