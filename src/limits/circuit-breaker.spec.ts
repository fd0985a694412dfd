import { CircuitBreaker } from './circuit-breaker';

describe('CircuitBreaker', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('opens at the first failure and closes at the first successful probe', async () => {
    let healthy = false;
    const probe = jest.fn(() => (healthy ? Promise.resolve() : Promise.reject(new Error('down'))));
    const changes: boolean[] = [];
    const circuit = new CircuitBreaker(probe, (open) => changes.push(open), 250);
    expect(circuit.open).toBe(false);

    circuit.recordFailure();
    circuit.recordFailure();
    expect(circuit.open).toBe(true);
    await jest.advanceTimersByTimeAsync(750);
    expect(probe).toHaveBeenCalledTimes(3);
    expect(circuit.open).toBe(true);

    healthy = true;
    await jest.advanceTimersByTimeAsync(250);
    expect(circuit.open).toBe(false);
    expect(changes).toEqual([true, false]);
    await jest.advanceTimersByTimeAsync(1_000);
    expect(probe).toHaveBeenCalledTimes(4);
  });

  it('runs one probe at a time, however long it takes', async () => {
    const probe = jest.fn(() => new Promise<void>((resolve) => setTimeout(resolve, 1_000)));
    const circuit = new CircuitBreaker(probe, undefined, 250);
    circuit.recordFailure();
    await jest.advanceTimersByTimeAsync(900);
    expect(probe).toHaveBeenCalledTimes(1);
    await jest.advanceTimersByTimeAsync(500);
    expect(circuit.open).toBe(false);
    circuit.stop();
  });
});
