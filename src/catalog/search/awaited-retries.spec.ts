import { AwaitedRetries } from './awaited-retries';

describe('AwaitedRetries', () => {
  const at = (seconds: number) => 1_000_000 + seconds * 1000;

  it('counts a refusal until its Retry-After has run out, to the nearest second', () => {
    const retries = new AwaitedRetries(10);
    retries.add(at(0), 1);
    retries.add(at(0.2), 3);
    expect(retries.pending(at(0.5))).toBe(2);
    expect(retries.pending(at(1.1))).toBe(1);
    expect(retries.pending(at(2.9))).toBe(1);
    expect(retries.pending(at(3.1))).toBe(0);
  });

  it('reuses its slots as time goes on: old refusals never count again', () => {
    const retries = new AwaitedRetries(2);
    for (let second = 0; second < 100; second++) {
      retries.add(at(second), 2);
      retries.add(at(second), 1);
      // This second's two and, from the second second on, the last second's one with 2 s.
      expect(retries.pending(at(second + 0.1))).toBe(second === 0 ? 2 : 3);
    }
    expect(retries.pending(at(103))).toBe(0);
  });
});
