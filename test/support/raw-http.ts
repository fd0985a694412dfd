import { connect } from 'node:net';

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Writes `bytes` as they are on a new connection (no client library normalizes them) and parses
 * the single answer. For a HEAD request (`head`), an answer that keeps the connection open has no
 * body; one that closes it is read to the end. Rejects when no answer comes within `withinMs`.
 */
export function rawRequest(
  port: number,
  bytes: Buffer | string,
  withinMs = 10_000,
  options: { head?: boolean } = {},
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within ${withinMs} ms`));
    }, withinMs);
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      const answer = parseAnswer(Buffer.concat(chunks), { head: options.head, closed: false });
      if (answer) {
        clearTimeout(timer);
        // A reset leaves no TIME_WAIT behind, so long fuzzing runs do not exhaust local ports.
        socket.resetAndDestroy();
        resolve(answer);
      }
    });
    // The server may close before reading everything we send (an oversized head): not our error.
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      const answer = parseAnswer(Buffer.concat(chunks), { head: options.head, closed: true });
      if (answer) resolve(answer);
      else reject(new Error(`connection closed without a complete answer: ${Buffer.concat(chunks)}`));
    });
    socket.write(bytes);
  });
}

export function parseAnswer(raw: Buffer, { head = false, closed = false }): RawAnswer | null {
  const headEnd = raw.indexOf('\r\n\r\n');
  if (headEnd === -1) return null;
  const [statusLine, ...lines] = raw.subarray(0, headEnd).toString('latin1').split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const status = Number(statusLine.split(' ')[1]);
  const body = raw.subarray(headEnd + 4);
  if (head) {
    if (headers.connection === 'close' && !closed) return null;
    return { status, headers, body: body.toString('utf8') };
  }
  const length = Number(headers['content-length'] ?? 0);
  if (body.length < length) return null;
  return { status, headers, body: body.subarray(0, length).toString('utf8') };
}

export interface RawConversation {
  /** Every answer that arrived, in order. */
  answers: RawAnswer[];
  /** Whether the server closed the connection within the wait. */
  closed: boolean;
}

/**
 * Writes `bytes` on a new connection and reads everything the server sends until it closes the
 * connection or `waitMs` passes, so a second (unsolicited) answer to one request is seen too.
 */
export function rawConversation(
  port: number,
  bytes: Buffer | string,
  waitMs = 2_000,
  options: { head?: boolean } = {},
): Promise<RawConversation> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    const chunks: Buffer[] = [];
    const finish = (closed: boolean) => {
      clearTimeout(timer);
      socket.removeAllListeners('close');
      socket.resetAndDestroy();
      resolve({ answers: splitAnswers(Buffer.concat(chunks), options.head ?? false), closed });
    };
    const timer = setTimeout(() => finish(false), waitMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => finish(true));
    socket.write(bytes);
  });
}

/** The answers in `raw`; after a HEAD request the first answer has no body, so the rest is its body. */
function splitAnswers(raw: Buffer, head: boolean): RawAnswer[] {
  if (head) {
    const answer = parseAnswer(raw, { head, closed: true });
    return answer ? [answer] : [];
  }
  const answers: RawAnswer[] = [];
  let rest = raw;
  while (rest.length > 0) {
    const answer = parseAnswer(rest, { closed: true });
    if (!answer) break;
    answers.push(answer);
    const headEnd = rest.indexOf('\r\n\r\n');
    rest = rest.subarray(headEnd + 4 + Buffer.byteLength(answer.body));
  }
  return answers;
}
