/** Seeded random numbers and the samplers built on them; everything the generator draws goes through here. */

export type Rng = () => number;

/** mulberry32: tiny, fast, good enough for test data; returns floats in [0, 1). */
export function mulberry32(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Derives independent 32-bit seeds for the separate streams from the user seed. */
export function deriveSeed(seed: number, stream: number): number {
  let h = (Math.imul(seed >>> 0, 0x9e3779b1) ^ Math.imul(stream + 1, 0x85ebca6b)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d) >>> 0;
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b) >>> 0;
  return (h ^ (h >>> 16)) >>> 0;
}

export function int(rng: Rng, min: number, max: number): number {
  return min + Math.floor(rng() * (max - min + 1));
}

export function pick<T>(rng: Rng, items: readonly T[]): T {
  return items[Math.floor(rng() * items.length)];
}

export function normal(rng: Rng, mean: number, sd: number): number {
  const u = 1 - rng();
  const v = rng();
  return mean + sd * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

export function clamp(value: number, min: number, max: number): number {
  return value < min ? min : value > max ? max : value;
}

/** Samples from a cumulative weight table by binary search. */
export class CdfSampler<T> {
  private readonly cdf: Float64Array;

  constructor(
    readonly items: readonly T[],
    weights: readonly number[],
  ) {
    if (items.length === 0 || items.length !== weights.length) throw new Error('bad sampler table');
    this.cdf = new Float64Array(items.length);
    let total = 0;
    for (let i = 0; i < weights.length; i++) {
      total += weights[i];
      this.cdf[i] = total;
    }
    for (let i = 0; i < this.cdf.length; i++) this.cdf[i] /= total;
  }

  index(rng: Rng): number {
    const x = rng();
    let lo = 0;
    let hi = this.cdf.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.cdf[mid] > x) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  sample(rng: Rng): T {
    return this.items[this.index(rng)];
  }
}

/** Zipf–Mandelbrot law over an ordered list: weight of rank r (1-based) is 1 / (r + q)^s. */
export function zipf<T>(items: readonly T[], s: number, q = 0): CdfSampler<T> {
  return new CdfSampler(
    items,
    items.map((_, i) => 1 / Math.pow(i + 1 + q, s)),
  );
}

export function weighted<T extends string>(table: Readonly<Record<T, number>>): CdfSampler<T> {
  const keys = Object.keys(table) as T[];
  return new CdfSampler(
    keys,
    keys.map((k) => table[k]),
  );
}
