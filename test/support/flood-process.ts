import { type ChildProcess, fork } from 'node:child_process';
import { Agent, get } from 'node:http';

export interface FloodPlan {
  port: number;
  key: string;
  /** Each busy client requests its path again as soon as it is answered, on a kept-alive connection. */
  busyPaths: string[];
  /** Each connecting client requests its path on a new connection, again as soon as it is answered. */
  connectingPaths: string[];
}

/** What the flood was answered: statuses and how many times each came back. */
export type FloodCounts = Record<string, number>;

/**
 * A flood of requests from a process of its own: a test timing something under the flood measures the
 * server, not its own event loop, which would otherwise open and read every flood connection first.
 */
export class FloodProcess {
  private constructor(private readonly child: ChildProcess) {}

  /** Resolves once every client has opened its first request. */
  static async start(plan: FloodPlan): Promise<FloodProcess> {
    const child = fork(__filename, [JSON.stringify(plan)], {
      execArgv: ['-r', 'ts-node/register/transpile-only'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    await new Promise<void>((resolve, reject) => {
      child.once('message', () => resolve());
      child.once('exit', (code) => reject(new Error(`the flood process exited (${code}) before flooding`)));
    });
    child.removeAllListeners('exit');
    return new FloodProcess(child);
  }

  /** Stops every client, waits for their answers, and returns the flood's statuses. */
  stop(): Promise<FloodCounts> {
    const counts = new Promise<FloodCounts>((resolve, reject) => {
      this.child.once('message', resolve);
      this.child.once('exit', (code) =>
        reject(new Error(`the flood process exited (${code}) before reporting`)),
      );
    });
    this.child.send('stop');
    return counts;
  }
}

/** One GET and its status ('error' when the connection failed), the answer read to its end. */
function status(port: number, path: string, key: string, agent: Agent | false): Promise<string> {
  return new Promise((resolve) => {
    get({ host: '127.0.0.1', port, path, agent, headers: { Authorization: `Bearer ${key}` } }, (res) => {
      res.resume();
      res.on('end', () => resolve(String(res.statusCode)));
    }).on('error', () => resolve('error'));
  });
}

function flood(plan: FloodPlan): void {
  const agent = new Agent({ keepAlive: true });
  const counts: FloodCounts = {};
  const count = (answer: string) => (counts[answer] = (counts[answer] ?? 0) + 1);
  let flooding = true;
  // A client whose connection fails stops: a flood of a server that is gone would only spin.
  const client = async (path: string, over: Agent | false) => {
    while (flooding) {
      const answer = await status(plan.port, path, plan.key, over);
      count(answer);
      if (answer === 'error') return;
    }
  };
  const running = [
    ...plan.busyPaths.map((path) => client(path, agent)),
    ...plan.connectingPaths.map((path) => client(path, false)),
  ];
  // Ends with its parent, whichever way the parent ends.
  process.once('disconnect', () => process.exit(1));
  process.send!('flooding');
  process.once('message', () => {
    flooding = false;
    void Promise.all(running).then(() => {
      agent.destroy();
      process.send!(counts, () => process.exit(0));
    });
  });
}

if (require.main === module) flood(JSON.parse(process.argv[2]) as FloodPlan);
