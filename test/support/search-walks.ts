import { fork } from 'node:child_process';

export interface SearchWalkPlan {
  origin: string;
  key: string;
  /** The search's query string, without `limit` and `page`. */
  query: string;
  /** One client per entry, each walking every page of the search at that `limit`. */
  limits: number[];
}

export interface SearchWalks {
  /** Each answer's status and how many times it came back. */
  statuses: Record<string, number>;
  /** The IMDb ids each client saw, in order, up to its last page or its first answer that was not 200. */
  walks: string[][];
}

interface Page {
  data: Array<{ imdb_id: string }>;
  meta: { page: number; total_pages: number };
}

/**
 * Clients walking every page of a search, one request at a time each, from a process of their own, as
 * clients come from other hosts than the replica's: a burst then measures the server, not a server
 * whose event loop also reads every client's answers.
 */
export function walkSearchFromAnotherProcess(plan: SearchWalkPlan): Promise<SearchWalks> {
  const child = fork(__filename, [JSON.stringify(plan)], {
    execArgv: ['-r', 'ts-node/register/transpile-only'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (walks) => resolve(walks as SearchWalks));
    child.once('exit', (code) => reject(new Error(`the walking process exited (${code}) before reporting`)));
  });
}

async function walkAll(plan: SearchWalkPlan): Promise<SearchWalks> {
  const statuses: Record<string, number> = {};
  const walk = async (limit: number) => {
    const seen: string[] = [];
    for (let page = 1; ; page++) {
      const res = await fetch(`${plan.origin}/v1/search?${plan.query}&limit=${limit}&page=${page}`, {
        headers: { Authorization: `Bearer ${plan.key}` },
      });
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      if (res.status !== 200) return seen;
      const body = (await res.json()) as Page;
      seen.push(...body.data.map((title) => title.imdb_id));
      if (body.meta.page >= body.meta.total_pages) return seen;
    }
  };
  return { statuses, walks: await Promise.all(plan.limits.map(walk)) };
}

if (require.main === module) {
  // Ends with its parent, whichever way the parent ends.
  process.once('disconnect', () => process.exit(1));
  void walkAll(JSON.parse(process.argv[2]) as SearchWalkPlan).then((walks) =>
    process.send!(walks, () => process.exit(0)),
  );
}
