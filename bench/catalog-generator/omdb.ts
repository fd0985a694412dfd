/** The enrichment file's OMDb "by id" records: people, plots, awards and the rest, from their own stream. */
import { CdfSampler, int, normal, pick, type Rng, zipf } from './random';
import { GENRE_MIX, KEPT_TYPES, type TitleRow } from './title-row';
import {
  CONTENT_RATINGS_MOVIE,
  CONTENT_RATINGS_TV,
  COUNTRY_NAMES,
  FIRST_NAMES,
  LANGUAGE_NAMES,
  LAST_NAMES,
  MONTHS,
  PLOTS,
  WRITER_ROLES,
} from './vocabulary';

const PLURAL_SUBJECT = /^(Two|Three|A group|A pair)/;
const POSTER_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export class OmdbComposer {
  /** People are numbered by popularity; a number names a (first, last) pair. */
  private readonly people = zipf(
    Array.from({ length: 80_000 }, (_, i) => i),
    0.9,
    20,
  );
  private readonly languageNames = zipf(LANGUAGE_NAMES, 1.3, 0);
  private readonly countryNames = zipf(COUNTRY_NAMES, 1.3, 0);

  /** `rng` is the enrichment stream: nothing else draws from it, so the basics and ratings never depend on it. */
  constructor(private readonly rng: Rng) {}

  /** Decides on (and builds) the enrichment record of a row; consumes only the enrichment stream. */
  enrichmentLine(t: TitleRow, ratio: number, episodeRatio: number): string | null {
    const e = this.rng;
    const kept = KEPT_TYPES.has(t.type);
    if (kept ? !(e() < ratio) : t.type !== 'tvEpisode' || !(e() < episodeRatio)) return null;
    return JSON.stringify(this.omdb(t));
  }

  private person(): string {
    const k = this.people.sample(this.rng);
    const first = FIRST_NAMES[k % FIRST_NAMES.length];
    const last = LAST_NAMES[Math.floor(k / FIRST_NAMES.length) % LAST_NAMES.length];
    return `${first} ${last}`;
  }

  private personList(min: number, max: number, suffixes?: readonly string[]): string {
    const e = this.rng;
    const n = int(e, min, max);
    const out: string[] = [];
    for (let i = 0; i < n; i++) out.push(this.person() + (suffixes ? pick(e, suffixes) : ''));
    return out.join(', ');
  }

  private plot(t: TitleRow): string {
    const e = this.rng;
    if (t.type === 'tvSeries' || t.type === 'tvMiniSeries') {
      return `Follows ${pick(e, PLOTS.seriesSubjects)} ${pick(e, PLOTS.settings)}.${e() < 0.5 ? ` ${pick(e, PLOTS.codas)}` : ''}`;
    }
    const subject = pick(e, PLOTS.subjects);
    const verb = pick(e, PLOTS.verbs)[PLURAL_SUBJECT.test(subject) ? 1 : 0];
    return `${subject} ${verb} ${pick(e, PLOTS.objects)} ${pick(e, PLOTS.settings)}.${
      e() < 0.6 ? ` ${pick(e, PLOTS.codas)}` : ''
    }`;
  }

  private listOf(sampler: CdfSampler<string>, first: string | null, max: number): string {
    const e = this.rng;
    const set = new Set<string>();
    if (first) set.add(first);
    const n = int(e, 1, max);
    while (set.size < n) set.add(sampler.sample(e));
    return [...set].join(', ');
  }

  private awards(): string {
    const e = this.rng;
    const x = e();
    if (x < 0.55) return 'N/A';
    const wins = Math.floor(-Math.log(1 - e()) * 4);
    const noms = wins + Math.floor(-Math.log(1 - e()) * 8) + 1;
    if (x < 0.58) {
      const oscars = int(e, 1, 4);
      return `Won ${oscars} Oscar${oscars === 1 ? '' : 's'}. ${wins + 5} wins & ${noms + 10} nominations total`;
    }
    if (x < 0.62) return `Nominated for ${int(e, 1, 6)} Oscars. ${wins} wins & ${noms} nominations total`;
    if (x < 0.64) return `Won 1 Primetime Emmy. ${wins + 1} wins & ${noms + 2} nominations total`;
    return wins === 0
      ? `${noms} nomination${noms === 1 ? '' : 's'}`
      : `${wins} win${wins === 1 ? '' : 's'} & ${noms} nominations`;
  }

  private omdb(t: TitleRow): Record<string, unknown> {
    const e = this.rng;
    const na = (share: number, value: () => string) => (e() < share ? 'N/A' : value());
    const isSeries = t.type === 'tvSeries' || t.type === 'tvMiniSeries';
    const isEpisode = t.type === 'tvEpisode';
    const omdbType = isSeries ? 'series' : isEpisode ? 'episode' : 'movie';

    let year = 'N/A';
    if (t.startYear !== null) {
      year = String(t.startYear);
      if (isSeries) {
        if (t.endYear === null) year += '–';
        else if (t.endYear !== t.startYear) year += `–${t.endYear}`;
      }
    }
    const released =
      t.startYear === null
        ? 'N/A'
        : na(0.15, () => `${String(int(e, 1, 28)).padStart(2, '0')} ${pick(e, MONTHS)} ${t.startYear}`);
    const runtime =
      t.runtime !== null ? na(0.08, () => `${t.runtime} min`) : na(0.5, () => `${int(e, 20, 130)} min`);
    const genre =
      t.genres !== null
        ? na(0.03, () => (t.genres as string[]).join(', '))
        : na(0.5, () => GENRE_MIX.sample(e));
    const language = t.language;
    const languages = na(0.05, () => this.listOf(this.languageNames, language?.name ?? null, 3));
    const countries = na(0.04, () => this.listOf(this.countryNames, language?.country ?? null, 3));
    const imdbRating = t.rating === null ? 'N/A' : t.rating.toFixed(1);
    const imdbVotes = t.rating === null ? 'N/A' : t.votes.toLocaleString('en-US');
    const metascore = t.votes > 2_000 && e() < 0.6 ? String(int(e, 20, 98)) : 'N/A';
    const ratings: { Source: string; Value: string }[] = [];
    if (t.rating !== null) ratings.push({ Source: 'Internet Movie Database', Value: `${imdbRating}/10` });
    if (t.votes > 5_000 && e() < 0.5)
      ratings.push({ Source: 'Rotten Tomatoes', Value: `${int(e, 5, 100)}%` });
    if (metascore !== 'N/A') ratings.push({ Source: 'Metacritic', Value: `${metascore}/100` });
    let poster = 'N/A';
    if (e() < 0.8) {
      let key = '';
      for (let i = 0; i < 32; i++) key += POSTER_CHARS[Math.floor(e() * POSTER_CHARS.length)];
      poster = `https://m.media-amazon.com/images/M/MV5B${key}._V1_SX300.jpg`;
    }

    const o: Record<string, unknown> = {
      Title: t.title,
      Year: year,
      Rated: na(0.3, () => pick(e, isSeries || isEpisode ? CONTENT_RATINGS_TV : CONTENT_RATINGS_MOVIE)),
      Released: released,
    };
    if (isEpisode) {
      o.Season = na(0.2, () => String(int(e, 1, 12)));
      o.Episode = na(0.2, () => String(int(e, 1, 24)));
    }
    o.Runtime = runtime;
    o.Genre = genre;
    o.Director = isSeries ? na(0.7, () => this.personList(1, 2)) : na(0.06, () => this.personList(1, 2));
    o.Writer = na(0.12, () => this.personList(1, 3, WRITER_ROLES));
    o.Actors = na(0.05, () => this.personList(1, 3));
    o.Plot = na(0.12, () => this.plot(t));
    o.Language = languages;
    o.Country = countries;
    o.Awards = this.awards();
    o.Poster = poster;
    o.Ratings = ratings;
    o.Metascore = metascore;
    o.imdbRating = imdbRating;
    o.imdbVotes = imdbVotes;
    o.imdbID = t.id;
    if (isEpisode) o.seriesID = t.seriesId ?? 'N/A';
    o.Type = omdbType;
    if (isSeries) {
      const seasons =
        t.type === 'tvMiniSeries'
          ? 1
          : Math.max(1, (t.endYear ?? 2026) - (t.startYear ?? 2026) + (e() < 0.5 ? 1 : 0));
      o.totalSeasons = na(0.05, () => String(seasons));
    } else if (!isEpisode) {
      o.DVD = na(
        0.7,
        () =>
          `${String(int(e, 1, 28)).padStart(2, '0')} ${pick(e, MONTHS)} ${Math.min(2026, (t.startYear ?? 2000) + 1)}`,
      );
      o.BoxOffice =
        t.type === 'movie' && t.votes > 1_000
          ? na(0.4, () => `$${Math.floor(Math.exp(normal(e, 16, 2))).toLocaleString('en-US')}`)
          : 'N/A';
      o.Production = 'N/A';
      o.Website = 'N/A';
    }
    o.Response = 'True';
    return o;
  }
}
