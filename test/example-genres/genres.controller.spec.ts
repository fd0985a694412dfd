import { ConditionalReply } from '../../src/route-kit';
import type { GenreCount, GenreCountRepository } from './genre-count.repository';
import { GenresController } from './genres.controller';
import { GenresQueryDto } from './genres-query.dto';

/** The controller alone, over a fake repository and a fake response: what a team's unit spec checks. */
describe('GenresController', () => {
  const counts: GenreCount[] = [{ genre: 'Drama', titles: 3 }];
  const asked: number[] = [];
  const repository = {
    count: async (minTitles: number) => {
      asked.push(minTitles);
      return { version: 'v1', value: counts };
    },
  } as unknown as GenreCountRepository;
  const controller = new GenresController(repository);

  function replyTo(fresh: boolean) {
    const headers = new Map<string, string>();
    const res = { setHeader: (name: string, value: string) => headers.set(name, value) };
    // A fresh request is one that sent a condition (If-None-Match) Express found current.
    const conditions = fresh ? { 'if-none-match': '"held-by-the-client"' } : {};
    const req = { originalUrl: '/v1/genres?min_titles=2', headers: conditions, fresh };
    return { reply: new ConditionalReply(req as never, res as never), headers };
  }

  it('answers the counts in the list envelope, tagged with the catalog version', async () => {
    const { reply, headers } = replyTo(false);
    const query = Object.assign(new GenresQueryDto(), { min_titles: 2 });
    const body = await controller.list(query, 'req-1', reply);
    expect(asked).toEqual([2]);
    expect(JSON.parse(String(body))).toEqual({ data: counts, meta: { request_id: 'req-1' } });
    expect(headers.get('ETag')).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
  });

  it('answers nothing when the client holds the current version (Express then sends 304)', async () => {
    const { reply } = replyTo(true);
    await expect(controller.list(new GenresQueryDto(), 'req-2', reply)).resolves.toBeUndefined();
  });
});
