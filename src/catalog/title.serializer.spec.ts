import type { TitleRow } from './title-columns';
import { serializeTitle } from './title.serializer';

const row = (overrides: Partial<TitleRow> = {}): TitleRow => ({
  id: 7,
  imdb_id: 'tt0000007',
  type: 'movie',
  title: 'T',
  original_title: 'T',
  year: 2000,
  end_year: null,
  runtime_minutes: 90,
  genres: ['Drama'],
  content_rating: null,
  plot: null,
  languages: [],
  countries: null,
  directors: null,
  writers: null,
  actors: null,
  awards: null,
  poster_url: null,
  box_office: null,
  production: null,
  total_seasons: 2,
  rating_average: 7.5,
  rating_votes: 12,
  ...overrides,
});

describe('serializeTitle', () => {
  it('produces exactly the 22 contract fields in order', () => {
    expect(Object.keys(serializeTitle(row()))).toEqual([
      'id',
      'imdb_id',
      'type',
      'title',
      'original_title',
      'year',
      'end_year',
      'runtime_minutes',
      'genres',
      'content_rating',
      'plot',
      'languages',
      'countries',
      'directors',
      'writers',
      'actors',
      'awards',
      'poster_url',
      'box_office',
      'production',
      'total_seasons',
      'ratings',
    ]);
  });

  it('turns empty lists into null and keeps total_seasons for series only', () => {
    expect(serializeTitle(row()).languages).toBeNull();
    expect(serializeTitle(row()).total_seasons).toBeNull();
    expect(serializeTitle(row({ type: 'tv_mini_series' })).total_seasons).toBe(2);
  });

  it('makes id and ratings JSON numbers even when the driver returns strings', () => {
    const title = serializeTitle(
      row({ id: '7' as unknown as number, rating_average: '7.5' as unknown as number }),
    );
    expect(title.id).toBe(7);
    expect(title.ratings).toEqual({ average: 7.5, votes: 12 });
  });

  it('renders the same JSON bytes as the contract example shape', () => {
    expect(JSON.stringify(serializeTitle(row({ type: 'tv_series', countries: ['US', 'GB'] })))).toBe(
      '{"id":7,"imdb_id":"tt0000007","type":"tv_series","title":"T","original_title":"T","year":2000,' +
        '"end_year":null,"runtime_minutes":90,"genres":["Drama"],"content_rating":null,"plot":null,' +
        '"languages":null,"countries":["US","GB"],"directors":null,"writers":null,"actors":null,' +
        '"awards":null,"poster_url":null,"box_office":null,"production":null,"total_seasons":2,' +
        '"ratings":{"average":7.5,"votes":12}}',
    );
  });
});
