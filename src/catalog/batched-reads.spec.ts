import { BatchedReads } from './batched-reads';

/** A statement the test finishes when it wants, recording the keys it was sent. */
function statements() {
  const sent: Array<{ keys: string[]; finish: () => void; fail: (error: Error) => void }> = [];
  const readMany = (keys: string[]) =>
    new Promise<string[]>((resolve, reject) => {
      sent.push({
        keys,
        finish: () => resolve(keys.map((key) => key.toUpperCase())),
        fail: reject,
      });
    });
  return { sent, readMany };
}

describe('BatchedReads', () => {
  it('starts a lone read at once, in a statement of its own', async () => {
    const { sent, readMany } = statements();
    const reads = new BatchedReads(readMany, 2, 100);
    const answer = reads.read('a');
    expect(sent.map((statement) => statement.keys)).toEqual([['a']]);
    sent[0].finish();
    expect(await answer).toBe('A');
    expect(reads.running).toBe(0);
  });

  it('sends the keys asked while the statements run together in the next one', async () => {
    const { sent, readMany } = statements();
    const reads = new BatchedReads(readMany, 2, 100);
    const answers = ['a', 'b', 'c', 'd', 'e'].map((key) => reads.read(key));
    expect(sent.map((statement) => statement.keys)).toEqual([['a'], ['b']]);
    sent[0].finish();
    await answers[0];
    expect(sent.map((statement) => statement.keys)).toEqual([['a'], ['b'], ['c', 'd', 'e']]);
    sent[1].finish();
    sent[2].finish();
    expect(await Promise.all(answers)).toEqual(['A', 'B', 'C', 'D', 'E']);
  });

  it('sends at most maxBatch keys a statement', async () => {
    const { sent, readMany } = statements();
    const reads = new BatchedReads(readMany, 1, 2);
    const answers = ['a', 'b', 'c', 'd'].map((key) => reads.read(key));
    for (let i = 0; i < 3; i++) {
      sent[i].finish();
      await answers[i === 0 ? 0 : 2 * i];
    }
    expect(sent.map((statement) => statement.keys)).toEqual([['a'], ['b', 'c'], ['d']]);
    expect(await Promise.all(answers)).toEqual(['A', 'B', 'C', 'D']);
  });

  it('fails every read of a failed statement, and goes on with the next', async () => {
    const { sent, readMany } = statements();
    const reads = new BatchedReads(readMany, 1, 100);
    const first = reads.read('a');
    const batched = [reads.read('b'), reads.read('c')];
    sent[0].fail(new Error('timeout'));
    await expect(first).rejects.toThrow('timeout');
    sent[1].fail(new Error('timeout'));
    await expect(Promise.all(batched)).rejects.toThrow('timeout');
    await expect(batched[1]).rejects.toThrow('timeout');
    const later = reads.read('d');
    sent[2].finish();
    expect(await later).toBe('D');
  });
});
