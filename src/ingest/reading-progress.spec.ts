import { readingDetail } from './reading-progress';

describe('readingDetail', () => {
  it('shows rows, rate, the percentage of the file and the time left', () => {
    expect(readingDetail(250_000, 10, 0.25)).toBe(': 250,000 rows (25,000/s), 25%, ~30 s left');
    expect(readingDetail(100_000, 60, 0.2)).toBe(': 100,000 rows (1,667/s), 20%, ~4 min left');
  });

  it('gives no time left before there is a rate to go by, nor once the file is read', () => {
    expect(readingDetail(0, 0, 0)).toBe(': 0 rows (0/s), 0%');
    expect(readingDetail(500, 1, 1)).toBe(': 500 rows (500/s), 100%');
  });

  it('shows rows and rate alone when the size is unknown', () => {
    expect(readingDetail(10_000, 2, undefined)).toBe(': 10,000 rows (5,000/s)');
  });
});
