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
  it('starts a lone read at once, in a statement of its own, and frees its slot when answered', async () => {
    const { sent, readMany } = statements();
    const reads = new BatchedReads(readMany, 1, 100, 1_000);
    const answer = reads.read('a');
    expect(sent.map((statement) => statement.keys)).toEqual([['a']]);
    sent[0].finish();
    expect(await answer).toBe('A');
    void reads.read('b');
    expect(sent.map((statement) => statement.keys)).toEqual([['a'], ['b']]);
  });

  it('sends the keys asked while the statements run together in the next one', async () => {
    const { sent, readMany } = statements();
    const reads = new BatchedReads(readMany, 2, 100, 1_000);
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
    const reads = new BatchedReads(readMany, 1, 2, 1_000);
    const answers = ['a', 'b', 'c', 'd'].map((key) => reads.read(key));
    // Each statement's last key: a, then c, then d.
    for (const [statement, lastKey] of [0, 2, 3].entries()) {
      sent[statement].finish();
      await answers[lastKey];
    }
    expect(sent.map((statement) => statement.keys)).toEqual([['a'], ['b', 'c'], ['d']]);
    expect(await Promise.all(answers)).toEqual(['A', 'B', 'C', 'D']);
  });

  it('fails every read of a failed statement, and goes on with the next', async () => {
    const { sent, readMany } = statements();
    const reads = new BatchedReads(readMany, 1, 100, 1_000);
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

  it('starts queued keys after maxWaitMs even while the statements ahead still run (a slow database)', async () => {
    jest.useFakeTimers();
    try {
      const { sent, readMany } = statements();
      const reads = new BatchedReads(readMany, 1, 100, 50);
      const stuck = reads.read('a');
      const queued = [reads.read('b'), reads.read('c')];
      await jest.advanceTimersByTimeAsync(49);
      expect(sent.map((statement) => statement.keys)).toEqual([['a']]);
      await jest.advanceTimersByTimeAsync(1);
      expect(sent.map((statement) => statement.keys)).toEqual([['a'], ['b', 'c']]);
      sent[1].finish();
      expect(await Promise.all(queued)).toEqual(['B', 'C']);
      // A later key again waits for a free slot or the bound, whichever comes first.
      const later = reads.read('d');
      await jest.advanceTimersByTimeAsync(49);
      expect(sent).toHaveLength(2);
      sent[0].finish();
      await stuck;
      expect(sent.map((statement) => statement.keys)).toEqual([['a'], ['b', 'c'], ['d']]);
      sent[2].finish();
      expect(await later).toBe('D');
      await jest.advanceTimersByTimeAsync(1_000);
      expect(sent).toHaveLength(3);
    } finally {
      jest.useRealTimers();
    }
  });
});
