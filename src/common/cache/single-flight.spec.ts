import { SingleFlight } from './single-flight';

/** A read the test finishes when it wants. */
function deferred<V>() {
  let resolve!: (value: V) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<V>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

describe('SingleFlight', () => {
  it('gives concurrent callers of one key the outcome of one read', async () => {
    const flights = new SingleFlight<string>();
    const read = deferred<string>();
    let reads = 0;
    const start = () => flights.run('k', () => (reads++, read.promise));
    const answers = [start(), start(), start()];
    expect(reads).toBe(1);
    read.resolve('answer');
    expect(await Promise.all(answers)).toEqual(['answer', 'answer', 'answer']);
  });

  it('keeps keys apart, and starts a new read once the last one has finished', async () => {
    const flights = new SingleFlight<string>();
    let reads = 0;
    const read = (value: string) => async () => (reads++, value);
    expect(await Promise.all([flights.run('a', read('A')), flights.run('b', read('B'))])).toEqual(['A', 'B']);
    expect(flights.size).toBe(0);
    expect(await flights.run('a', read('A2'))).toBe('A2');
    expect(reads).toBe(3);
  });

  it('passes a failed read to every caller that joined it, and forgets it', async () => {
    const flights = new SingleFlight<string>();
    const read = deferred<string>();
    const answers = [flights.run('k', () => read.promise), flights.run('k', () => read.promise)];
    read.reject(new Error('refused'));
    for (const answer of answers) await expect(answer).rejects.toThrow('refused');
    expect(await flights.run('k', async () => 'again')).toBe('again');
  });

  it('after forgetAll, starts a new read that the end of the forgotten one does not drop', async () => {
    const flights = new SingleFlight<string>();
    const old = deferred<string>();
    const fresh = deferred<string>();
    const before = flights.run('k', () => old.promise);
    flights.forgetAll();
    const after = flights.run('k', () => fresh.promise);
    old.resolve('old');
    expect(await before).toBe('old');
    // The newer read is still the one a caller joins.
    const joined = flights.run('k', async () => 'a third read');
    fresh.resolve('new');
    expect(await Promise.all([after, joined])).toEqual(['new', 'new']);
  });

  it('turns a read that throws at once into a rejection, and forgets it', async () => {
    const flights = new SingleFlight<string>();
    const failing = flights.run('k', () => {
      throw new Error('bad key');
    });
    await expect(failing).rejects.toThrow('bad key');
    expect(await flights.run('k', async () => 'again')).toBe('again');
  });
});
