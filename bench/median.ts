/** The middle of `numbers` (the upper middle of an even count): every benchmark's "median of the rounds". */
export function median(numbers: readonly number[]): number {
  return [...numbers].sort((a, b) => a - b)[Math.floor(numbers.length / 2)];
}
