/** The basics/ratings row of each title: id, type, titles, years, runtime, genres, rating and votes. */
import { clamp, int, normal, pick, type Rng } from './random';
import { GENRE_MIX, type ImdbType, type TitleRow, TYPE_MIX } from './title-row';
import type { TitleComposer } from './titles';

export class RowGenerator {
  private lastSeriesId: string | null = null;
  private nextId = 0;

  /**
   * `rngTitle` drives everything but the rating, and is shared with `titles`; the rating has its own
   * stream so changing title rules does not reshuffle votes.
   */
  constructor(
    private readonly rngTitle: Rng,
    private readonly rngRating: Rng,
    private readonly titles: TitleComposer,
  ) {}

  nextRow(): TitleRow {
    const r = this.rngTitle;
    this.nextId += int(r, 1, 15);
    const id = `tt${String(this.nextId).padStart(7, '0')}`;
    const type = TYPE_MIX.sample(r);
    const { title, original, language } = this.titles.compose(type);

    const isAdult = r() < 0.01;
    const startYear = this.startYear(type);
    const endYear = this.endYear(type, startYear);
    const runtime = this.runtime(type);
    const genres = this.genres(type, isAdult);

    const rr = this.rngRating;
    let rating: number | null = null;
    let votes = 0;
    if (rr() < 0.85) {
      votes = RowGenerator.votes(rr, type);
      const spread = 0.8 + 1.2 / (1 + Math.log10(votes / 5));
      rating = Math.round(clamp(normal(rr, 6.3, spread), 1, 10) * 10) / 10;
    }

    if (type === 'tvSeries' || type === 'tvMiniSeries') this.lastSeriesId = id;
    return {
      id,
      type,
      title,
      original,
      language,
      isAdult,
      startYear,
      endYear,
      runtime,
      genres,
      rating,
      votes,
      seriesId: type === 'tvEpisode' ? this.lastSeriesId : null,
    };
  }

  private startYear(type: ImdbType): number | null {
    const r = this.rngTitle;
    if (r() < 0.015) return null;
    const min =
      type === 'videoGame'
        ? 1975
        : type === 'tvSeries' ||
            type === 'tvMiniSeries' ||
            type === 'tvEpisode' ||
            type === 'tvSpecial' ||
            type === 'tvMovie' ||
            type === 'tvShort' ||
            type === 'tvPilot'
          ? 1946
          : type === 'video'
            ? 1970
            : 1890;
    for (;;) {
      const year = 2026 - Math.floor(-Math.log(1 - r()) * 21);
      if (year >= min) return year;
    }
  }

  private endYear(type: ImdbType, startYear: number | null): number | null {
    const r = this.rngTitle;
    if (startYear === null) return null;
    if (type === 'tvSeries') {
      if (r() < 0.4) return null;
      const end = startYear + Math.floor(-Math.log(1 - r()) * 3.5);
      return end > 2026 ? null : end;
    }
    if (type === 'tvMiniSeries') {
      if (r() < 0.08) return null;
      return Math.min(2026, startYear + (r() < 0.8 ? 0 : 1));
    }
    return null;
  }

  private runtime(type: ImdbType): number | null {
    const r = this.rngTitle;
    const sometimes = (nullShare: number, value: () => number) =>
      r() < nullShare ? null : Math.round(value());
    switch (type) {
      case 'movie':
        return sometimes(0.08, () => clamp(normal(r, 101, 21), 40, 240));
      case 'tvMovie':
        return sometimes(0.05, () => clamp(normal(r, 88, 14), 45, 180));
      case 'tvSeries':
        return sometimes(0.2, () => pick(r, [22, 24, 25, 30, 30, 42, 43, 44, 45, 50, 55, 60]));
      case 'tvMiniSeries':
        return sometimes(0.15, () => (r() < 0.8 ? pick(r, [45, 50, 55, 60]) : int(r, 180, 600)));
      case 'tvSpecial':
        return sometimes(0.05, () => clamp(normal(r, 70, 28), 20, 180));
      case 'tvEpisode':
        return sometimes(0.3, () => pick(r, [11, 22, 24, 30, 42, 44, 45, 50, 60]));
      case 'short':
        return sometimes(0.05, () => int(r, 1, 40));
      case 'tvShort':
        return sometimes(0.1, () => int(r, 1, 30));
      case 'video':
        return sometimes(0.2, () => clamp(normal(r, 80, 30), 5, 200));
      case 'videoGame':
        return sometimes(0.95, () => int(r, 5, 60));
      case 'tvPilot':
        return sometimes(0.2, () => int(r, 25, 90));
    }
  }

  private genres(type: ImdbType, isAdult: boolean): string[] | null {
    const r = this.rngTitle;
    if (r() < 0.03) return null;
    const n = r() < 0.35 ? 1 : r() < 0.55 ? 2 : 3;
    const set = new Set<string>();
    if (type === 'short' || type === 'tvShort') set.add('Short');
    if (isAdult) set.add('Adult');
    while (set.size < n) set.add(GENRE_MIX.sample(r));
    return [...set].sort();
  }

  /** Long-tailed votes: Pareto from 5, steeper past 100k, capped near the real maximum. */
  private static votes(r: Rng, type: ImdbType): number {
    for (;;) {
      let v = 5 / Math.pow(1 - r(), 1 / 0.62);
      if (v > 100_000) v = 100_000 * Math.pow(v / 100_000, 0.5);
      if (type === 'tvEpisode' || type === 'short' || type === 'tvShort') v = 5 + (v - 5) * 0.3;
      if (v <= 3_300_000) return Math.floor(v);
    }
  }
}
