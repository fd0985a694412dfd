import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { StdoutLog } from './stdout-log';

/** A file destination like stdout's (asynchronous, `maxLength`), and the lines in its file. */
async function destination(maxLength: number) {
  const dir = mkdtempSync(join(tmpdir(), 'stdout-log-'));
  const file = join(dir, 'log');
  const stream = pino.destination({ dest: file, sync: false, maxLength });
  await new Promise((resolve) => stream.once('ready', resolve));
  const lines = () =>
    readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { stream, lines, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

describe('StdoutLog', () => {
  it('drops the lines past its budget, counts them, and says how many once the rest is written', async () => {
    const { stream, lines, remove } = await destination(300);
    try {
      const log = new StdoutLog(stream, 300);
      const logger = pino({ base: null }, stream);
      log.reportThrough(logger);
      // Written in one turn: the first line's write is still in flight, so the budget fills at once.
      for (let i = 0; i < 10; i++) logger.info({ i, pad: 'x'.repeat(60) }, 'line');
      expect(log.droppedLines).toBeGreaterThan(0);
      const dropped = log.droppedLines;
      await new Promise((resolve) => setTimeout(resolve, 100));
      stream.flushSync();
      const written = lines();
      expect(written.filter((line) => line.msg === 'line')).toHaveLength(10 - dropped);
      expect(written[written.length - 1]).toMatchObject({
        level: 40,
        dropped_lines: dropped,
        msg: `${dropped} log lines dropped: the log buffer (300 bytes) was full, stdout was not taking lines`,
      });
      // Reported once: a later drain adds nothing.
      logger.info('after');
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(lines().filter((line) => line.dropped_lines !== undefined)).toHaveLength(1);
      expect(log.droppedLines).toBe(dropped);
    } finally {
      stream.destroy();
      remove();
    }
  });

  it('writes no report while nothing was dropped', async () => {
    const { stream, lines, remove } = await destination(1_000_000);
    try {
      const log = new StdoutLog(stream, 1_000_000);
      const logger = pino({ base: null }, stream);
      log.reportThrough(logger);
      for (let i = 0; i < 10; i++) logger.info({ i }, 'line');
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(lines()).toHaveLength(10);
      expect(log.droppedLines).toBe(0);
    } finally {
      stream.destroy();
      remove();
    }
  });
});
